import type { AgentMiddleware } from "langchain";
import { refuseUnknownOptions } from "../errors/known-options.js";
import { createSkillsMiddleware, SKILLS_MIDDLEWARE_NAME, type SkillsMiddlewareOptions } from "./skills-middleware.js";
import { SKILLS_MIDDLEWARE_OPTIONS } from "./skills-middleware-options.js";

/** The parts of deepagents' `createDeepAgent` parameters that {@link withSkillset} reads and rewrites. */
export interface DeepAgentSkillParams {
  /** The agent's skill sources, as `createDeepAgent` takes them. */
  skills?: readonly string[] | undefined;
  /** deepagents' backend (or backend factory); deepagents' default, a `StateBackend`, when left out. */
  backend?: unknown;
  middleware?: readonly AgentMiddleware[] | undefined;
  subagents?: readonly unknown[] | undefined;
}

/** Options of {@link withSkillset}: those of `createSkillsMiddleware`, but for the sources and backend it takes from the parameters. */
export type WithSkillsetOptions = Omit<SkillsMiddlewareOptions, "sources" | "backend">;

type SubagentSpec = { skills?: readonly string[]; middleware?: readonly AgentMiddleware[] };
type Middleware<P> = P extends { middleware?: infer M } ? (M extends readonly AgentMiddleware[] ? M : []) : [];

/** The parameters {@link withSkillset} returns: the caller's, with skillset's middleware last, so `createDeepAgent` types the state it adds. */
export type WithSkillset<P extends DeepAgentSkillParams> = Omit<P, "middleware"> & {
  middleware: readonly [...Middleware<P>, ReturnType<typeof createSkillsMiddleware>];
};

/**
 * Switches a deepagents agent from deepagents' skills middleware to skillset's in one change:
 * `createDeepAgent(withSkillset({ model, skills: ["/skills/"], subagents }))`. The parameters come
 * back with skillset's middleware, reading the same sources through the same backend, in the
 * agent (deepagents hands it on to its general-purpose and forked subagents) and in every custom
 * subagent that declares its own `skills`. `skills` stays, so deepagents still gives the
 * general-purpose subagent a skills middleware for ours to replace by name.
 */
export function withSkillset<P extends DeepAgentSkillParams>(
  params: P,
  options: WithSkillsetOptions = {},
): WithSkillset<P> {
  // The sources and the backend come from the parameters; options are checked here, even when no
  // middleware is made (no skills), so a misspelt one fails where it is written.
  const { sources: _sources, backend: _backend, ...known } = SKILLS_MIDDLEWARE_OPTIONS;
  refuseUnknownOptions("withSkillset", options, known);
  const backend = params.backend ?? defaultStateBackend;
  const withOurs = (
    middleware: readonly AgentMiddleware[] | undefined,
    sources: readonly string[],
  ): AgentMiddleware[] => [
    ...(middleware ?? []).filter((entry) => entry.name !== SKILLS_MIDDLEWARE_NAME),
    createSkillsMiddleware({
      ...options,
      sources: [...sources],
      backend: backend as SkillsMiddlewareOptions["backend"],
    }),
  ];
  const subagents = params.subagents?.map((subagent) => {
    const spec = subagent as SubagentSpec;
    // A compiled subagent (`runnable`) has its middleware baked in; one without skills gets none.
    if ("runnable" in (subagent as object) || !spec.skills?.length) return subagent;
    return { ...spec, middleware: withOurs(spec.middleware, spec.skills) };
  });
  return {
    ...params,
    ...(params.skills?.length ? { middleware: withOurs(params.middleware, params.skills) } : {}),
    ...(subagents ? { subagents } : {}),
  } as unknown as WithSkillset<P>;
}

// deepagents' own default backend, loaded only when a caller relies on it: deepagents is an
// optional peer, present wherever createDeepAgent is.
const defaultStateBackend = (runtime: unknown) =>
  import("deepagents").then(({ StateBackend }) => new StateBackend(runtime as never));
