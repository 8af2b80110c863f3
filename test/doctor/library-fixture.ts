// A small library with one of each problem `skillset doctor` finds, in two sources: a user
// folder and a project folder that shadows one of its skills.
import { chmodSync } from "node:fs";
import { join } from "node:path";
import { tempTree } from "../helpers/skill-tree.js";

/** The description `skillset create` writes when none is given (copied, not imported: this is what users see). */
export const PLACEHOLDER = (name: string) => `Describe what ${name} does and when to use it.`;

// 520 lines of about 12 tokens each: over both the 500-line and the 5,000-token guidance.
const LONG_BODY = Array.from(
  { length: 520 },
  (_, index) => `${index + 1}. Check the migration step ${index + 1} against the schema and log what changed.`,
).join("\n");

/** Writes the library; `user` and `project` are the two skills folders, lowest precedence first. */
export function plantedLibrary() {
  const tree = tempTree("skillset-doctor-");
  const file = (path: string, text: string) => tree.write(path, text);
  const skill = (folder: string, name: string, description: string, body: string) =>
    file(
      `${folder}/${name}/SKILL.md`,
      `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n${body}\n`,
    );

  skill("user", "pdf-tools", "Old copy: merge PDF files. Use when the user asks to merge PDFs.", "# Old pdf-tools");
  skill(
    "user",
    "csv-report",
    "Summarise a CSV file as a short report. Use when the user shares a CSV and asks what is in it.",
    "# CSV report\n\nRead the file and summarise each column.",
  );

  skill(
    "project",
    "pdf-tools",
    "Merge, split and rotate PDF files. Use when the user asks to merge, split or rotate PDF pages.",
    "# PDF tools\n\nRun `scripts/merge.py` to merge.",
  );
  file("project/pdf-tools/scripts/merge.py", "print('merge')\n");
  chmodSync(join(tree.root, "project/pdf-tools/scripts/merge.py"), 0o755);
  skill(
    "project",
    "pdf-extract",
    "Extract text and tables from PDF files. Use when the user asks to read or extract text and tables from a PDF.",
    "# Extract\n\nOpen the PDF and extract what is asked.",
  );
  skill(
    "project",
    "pdf-text",
    "Extract the text and tables of PDF files. Use when the user asks to extract text or tables from PDF files.",
    "# Text\n\nExtract the text.",
  );
  skill(
    "project",
    "draft-skill",
    PLACEHOLDER("draft-skill"),
    "# draft-skill\n\n## When to use\n\nSay which tasks this skill is for, and which it is not for.\n\n## Steps\n\n1. First step.\n2. Second step.",
  );
  skill(
    "project",
    "db-migrate",
    "Plan and run database schema migrations. Use when the user asks to change a database schema.",
    `# Migrations\n\n${LONG_BODY}`,
  );
  skill(
    "project",
    "sql-format",
    "Formats SQL queries with consistent keyword case and indentation.",
    "# SQL\n\nFormat the query; see references/STYLE.md.",
  );
  file("project/sql-format/references/STYLE.md", "# Style\n");
  file("project/sql-format/assets/logo.txt", "logo\n");
  file("project/sql-format/LICENSE.txt", "MIT\n");
  return { ...tree, user: join(tree.root, "user"), project: join(tree.root, "project") };
}
