import type { SkillEngineOptions } from "../../core/engine/skill-engine-types.js";
import type { LockfileOption } from "./lockfile-verifier.js";
import { parseSkillsLockFile } from "./parse-skills-lock.js";

type VerifySkill = NonNullable<SkillEngineOptions["verifySkill"]>;

// For the hosts that load Node-only code only when it is used (skillset/langchain, skillset/ai),
// so that they still run where `node:fs` does not exist: nothing here imports Node.

/**
 * The `lockfile` option as the engine's `verifySkill`, its Node-only code loaded at the first
 * load. The lockfile is checked now where a file system is at hand (Node >= 20.16), so a missing
 * or malformed one fails when the host is built (`invalid-lockfile`, naming the file and the
 * problem); otherwise at the first load, which it then refuses, saying why, until it is fixed.
 */
export function lazyLockfileVerifier(option: LockfileOption): VerifySkill {
  const fs = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
    "node:fs",
  ) as { readFileSync(path: string, encoding: "utf8"): string } | undefined;
  if (fs)
    parseSkillsLockFile(typeof option === "string" ? option : option.path, (path) => fs.readFileSync(path, "utf8"));
  let verifier: Promise<VerifySkill> | undefined;
  const load = () =>
    import("./lockfile-verifier.js")
      .then(({ lockfileVerifier }) => lockfileVerifier(option))
      .catch((error: unknown) => {
        verifier = undefined;
        throw error;
      });
  return async (skill) => (await (verifier ??= load()))(skill);
}
