import type { SkillsLogEntry } from "../../core/skill-events.js";
import { plural } from "../plural.js";

/** One line of skill or tool activity, for stderr. */
export interface ActivityLine {
  text: string;
  level: "info" | "warn" | "error";
}

/** A tool call the model made and what it got back. */
export interface ToolActivity {
  name: string;
  args: Record<string, unknown>;
  result: string;
  error: boolean;
}

// Tools whose activity the middleware reports as events already (loaded, refused, scripts run).
const REPORTED_BY_EVENTS = new Set(["load_skill", "unload_skill", "run_skill_script", "search_skills", "run_code"]);

/** The activity line for one of the middleware's events (`{ type: "skillset", event, … }`). */
export function describeSkillEvent(entry: SkillsLogEntry): ActivityLine {
  const level = entry.level === "debug" ? "info" : entry.level;
  const skill = String(entry.skill ?? "");
  switch (entry.event) {
    case "skill_loaded":
      return { level, text: `loaded ${skill} (${plural(Number(entry.resources ?? 0), "resource")})` };
    case "skill_invoked": {
      const args = typeof entry.arguments === "string" && entry.arguments ? ` ${entry.arguments}` : "";
      return { level, text: `invoked /${skill}${args}` };
    }
    case "skill_unloaded":
      if (entry.reason === "user-invocation") return { level, text: `unloaded ${skill} to make room` };
      return {
        level,
        text: level === "warn" ? `unloaded ${skill}: it is no longer in any source` : `unloaded ${skill}`,
      };
    case "script_ran": {
      const argv = Array.isArray(entry.argv) ? entry.argv.join(" ") : "a script";
      const outcome = entry.timedOut ? "timed out" : `exit ${entry.exitCode ?? "by signal"}`;
      return { level, text: `ran ${argv} in ${skill} (${outcome}, ${entry.durationMs ?? 0} ms)` };
    }
    case "code_ran": {
      const imported =
        Array.isArray(entry.imported) && entry.imported.length > 0 ? `, imported ${entry.imported.join(", ")}` : "";
      const calls = `${plural(Number(entry.toolCalls ?? 0), "tool call")}${imported}, ${String(entry.durationMs ?? 0)} ms`;
      return entry.ok
        ? { level, text: `ran code (${calls})` }
        : { level, text: `code failed (${String(entry.errorKind)}; ${calls})` };
    }
    default:
      return { level, text: entry.message };
  }
}

/**
 * The activity line for a tool call that no event reports: resources read, and the file tools.
 * `undefined` for the skill tools, whose events say more.
 */
export function describeToolActivity(activity: ToolActivity): ActivityLine | undefined {
  if (REPORTED_BY_EVENTS.has(activity.name)) return undefined;
  const { args } = activity;
  const target =
    activity.name === "read_skill_resource"
      ? `${String(args.skill_name)}/${String(args.path)}`
      : activity.name === "read_file" || activity.name === "ls"
        ? String(args.path ?? ".")
        : activity.name === "glob" || activity.name === "grep"
          ? `${String(args.pattern)}${args.path ? ` in ${String(args.path)}` : ""}`
          : JSON.stringify(args);
  const verb = activity.name === "read_skill_resource" ? "read" : activity.name;
  if (!activity.error) return { level: "info", text: `${verb} ${target}` };
  const reason = activity.result.replace(/^Error:\s*/, "").split("\n")[0]!;
  return { level: "warn", text: `${verb} ${target} failed: ${reason}` };
}
