import { AIMessage } from "langchain";
import { RUN_CODE } from "../core/tools/skill-tool-definitions.js";

/**
 * The tools a model call offered, kept for each `run_code` call its answer made: the code of that call
 * reaches exactly the tools its agent had in that step (a fork's own, a thread's disclosed skill tools),
 * even when agents and threads share the middleware. Bounded; the oldest calls are forgotten first.
 */
export function createCodeCallTools<T>(limit = 256) {
  const byCall = new Map<string, readonly T[]>();
  return {
    remember<R>(response: R, tools: readonly T[]): R {
      if (!AIMessage.isInstance(response)) return response;
      for (const call of response.tool_calls ?? []) {
        if (call.name !== RUN_CODE.name || !call.id) continue;
        if (byCall.size >= limit) byCall.delete(byCall.keys().next().value!);
        byCall.set(call.id, tools);
      }
      return response;
    },
    /**
     * The tools offered with the call `id` (kept, so a retried tool node finds them again). A call this
     * process did not see (a thread resumed in another process) gets none rather than another agent's:
     * its code is told no tool is available, and the model's next run_code is seen here.
     */
    take(id: string): readonly T[] {
      return byCall.get(id) ?? [];
    },
  };
}
