import { formatCodeRunOutcome } from "../../exec/code-sandbox/format-code-run-outcome.js";
import { CODE_MODE_OFF_MESSAGE } from "../tools/skill-tool-messages.js";
import { loadedSkillsOf } from "./catalog-cache.js";
import { createModuleLoader, type ImportLog } from "./code-modules.js";
import type { CodeReply, CodeTool, CodeToolContext } from "./code-mode-types.js";
import { codeToolsFor } from "./code-tools.js";
import type { EngineContext } from "./engine-context.js";
import type { SkillRequest } from "./skill-engine-types.js";

// A request without a thread id gets a sandbox of its own, freed after the run, so nothing is shared.
let anonymousRuns = 0;

/**
 * The model's `run_code`: runs `code` in the thread's sandbox (keyed by `request.sessionId`) with the
 * loaded skills' modules importable and the tools the app, `allowed-tools` and `include_tools` let it call;
 * the text is the sandbox's report for the model. Each run is a `code_ran` event.
 */
export async function runCode(
  context: EngineContext,
  request: SkillRequest,
  input: { code: string },
  tools: Readonly<Record<string, CodeTool>>,
  toolContext: CodeToolContext = {},
): Promise<CodeReply> {
  const code = context.code;
  if (!code) return { ok: false, text: CODE_MODE_OFF_MESSAGE };
  const loaded = loadedSkillsOf(request.state, await context.catalogs.resolve(request));
  const log: ImportLog = { imported: [], refused: [] };
  const host = {
    loadModule: createModuleLoader(context, request, loaded, log),
    tools: codeToolsFor(context, request, loaded, tools, toolContext),
  };
  const thread = request.sessionId ?? `skillset:anonymous:${++anonymousRuns}`;
  const pool = await code.pool();
  const started = Date.now();
  const outcome = await pool.run(thread, input.code, host).finally(() => {
    if (request.sessionId === undefined) pool.release(thread);
  });
  const error = outcome.ok ? undefined : outcome.error;
  context.emit(request, {
    level: outcome.ok ? "info" : "warn",
    event: "code_ran",
    message: outcome.ok
      ? `run_code finished: ${outcome.toolCalls} tool call(s), ${log.imported.length} module(s) imported`
      : `run_code failed (${error!.kind}): ${error!.message}`,
    ok: outcome.ok,
    ...(error ? { errorKind: error.kind } : {}),
    toolCalls: outcome.toolCalls,
    imported: [...new Set(log.imported)],
    refusedImports: log.refused,
    codeChars: input.code.length,
    durationMs: Date.now() - started,
    ...(request.sessionId !== undefined ? { thread } : {}),
  });
  return { ok: outcome.ok, text: formatCodeRunOutcome(outcome, pool.limits), outcome };
}
