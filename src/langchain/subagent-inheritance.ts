import { getConfig } from "@langchain/langgraph";
import type { InheritedSkills } from "../core/loaded/inherit-skills.js";

// LangGraph's separator between the segments of a checkpoint namespace.
const NAMESPACE_SEPARATOR = "|";

// Parent tool calls that hand their skills down, by the checkpoint namespace of their tools task.
// An agent a tool starts with the tool's config (deepagents' `task` does) runs as a subgraph one
// segment below it, so only that agent finds the entry: not its own subagents, not other threads.
const handedDown = new Map<string, { skills: () => InheritedSkills; calls: number }>();

/**
 * Runs a parent's tool call so that an agent it starts as a subgraph finds `skills` with
 * {@link skillsFromParent}. Calls of one step share the namespace and the state, so the entry
 * is counted, and removed when the last of them ends.
 */
export async function handDownSkills<T>(
  namespace: unknown,
  skills: () => InheritedSkills,
  call: () => Promise<T>,
): Promise<T> {
  if (typeof namespace !== "string") return call();
  const entry = handedDown.get(namespace) ?? { skills, calls: 0 };
  entry.calls++;
  handedDown.set(namespace, entry);
  try {
    return await call();
  } finally {
    if (--entry.calls === 0) handedDown.delete(namespace);
  }
}

/** What the parent handed down, when this graph runs inside a tool call of a parent that does. */
export function skillsFromParent(): InheritedSkills | undefined {
  if (handedDown.size === 0) return undefined;
  let namespace: unknown;
  try {
    namespace = getConfig()?.configurable?.checkpoint_ns;
  } catch {
    return undefined;
  }
  if (typeof namespace !== "string") return undefined;
  const end = namespace.lastIndexOf(NAMESPACE_SEPARATOR);
  return end === -1 ? undefined : handedDown.get(namespace.slice(0, end))?.skills();
}
