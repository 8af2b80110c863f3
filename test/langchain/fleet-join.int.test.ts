// A worker joining a fleet from its catalog snapshot (docs/fleet.md) builds its first prompt with
// the token counts the snapshot holds: the real agent loop, the LangChain middleware with its
// defaults, and the catalog it would have built with the encoding, byte for byte.
import { AIMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { InMemoryStore } from "@langchain/langgraph";
import { StoreBackend } from "deepagents";
import { createAgent } from "langchain";
import { describe, expect, it, vi } from "vitest";

const DESCRIPTIONS = [
  "Review release notes, before a release.",
  "Convert CSV exports (UTF-8) for finance teams…",
  "Audit Kubernetes manifests; don't guess.",
];

// A library of `count` skills in deepagents' StoreBackend layout, in two collections.
async function library(count: number) {
  const store = new InMemoryStore();
  const now = new Date().toISOString();
  for (let index = 0; index < count; index++) {
    const name = `${index % 3 === 0 ? "ops" : "data"}-${String(index).padStart(5, "0")}`;
    const text = `---\nname: ${name}\ndescription: ${DESCRIPTIONS[index % 3]} Skill ${index}.\n---\n# ${name}\n`;
    await store.put(["library"], `/skills/${index % 2 ? "team" : "vendor"}/${name}/SKILL.md`, {
      content: text,
      created_at: now,
      modified_at: now,
    });
  }
  return store;
}

// One worker in a module graph of its own (a fresh process, as far as skillset's caches go), its
// skills from the snapshot or, with `direct`, from the backend itself: the system prompt of its
// first model call, and whether it loaded the encoding.
async function worker(store: InMemoryStore, { direct = false } = {}) {
  vi.resetModules();
  const { createSnapshotSource } = await import("../../src/index.js");
  const { createSkillsMiddleware } = await import("../../src/langchain.js");
  const { encodingLoaded } = await import("../../src/core/text/count-tokens.js");
  const backend = new StoreBackend({ store, namespace: ["library"] });
  const middleware = direct
    ? createSkillsMiddleware({ backend, sources: ["/skills/"], recursive: true })
    : createSkillsMiddleware({
        sources: [createSnapshotSource({ backend, path: "/skills/", recursive: true, store })],
      });
  const model = fakeModel().respond(new AIMessage("ok"));
  const agent = createAgent({ model, middleware: [middleware] });
  await agent.invoke({ messages: [{ role: "user", content: "hello" }] });
  return { prompt: model.calls[0]!.messages[0]!.text, encodingLoaded: encodingLoaded() };
}

describe("a worker joining from the catalog snapshot", () => {
  it.each([40, 3000])(
    "with %i skills, shows the catalog it would have counted with the encoding, without loading it",
    async (count) => {
      const store = await library(count);
      // Without a snapshot, the catalog is counted with the encoding.
      const direct = await worker(store, { direct: true });
      expect(direct.encodingLoaded).toBe(true);
      // The first worker of the fleet finds no snapshot: it scans the library and writes one.
      await worker(store);
      const joining = await worker(store);
      expect(joining.encodingLoaded).toBe(false);
      expect(joining.prompt).toBe(direct.prompt);
      expect(joining.prompt).toContain(count > 1000 ? "more skills are not listed here" : `\n- ops-00000: `);
    },
    60_000,
  );

  it("after a skill was corrected by path, still joins without the encoding, showing the corrected catalog", async () => {
    const store = await library(40);
    await worker(store);
    // A writer refreshes one changed skill: a correction stored beside the snapshot, in words the library already has.
    const path = "/skills/vendor/ops-00000/SKILL.md";
    const now = new Date().toISOString();
    const text = "---\nname: ops-00000\ndescription: Audit release notes for finance teams. Skill 0.\n---\n# ops\n";
    await store.put(["library"], path, { content: text, created_at: now, modified_at: now });
    vi.resetModules();
    const { createSnapshotSource } = await import("../../src/index.js");
    const backend = new StoreBackend({ store, namespace: ["library"] });
    const writer = createSnapshotSource({ backend, path: "/skills/", recursive: true, store });
    expect((await writer.refresh([path])).written).toBe(true);
    const joining = await worker(store);
    expect(joining.prompt).toContain("\n- ops-00000: Audit release notes for finance teams. Skill 0.");
    expect(joining.encodingLoaded).toBe(false);
    expect(joining.prompt).toBe((await worker(store, { direct: true })).prompt);
  }, 60_000);
});
