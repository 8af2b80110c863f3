// Reads a zip with Python's zipfile, a reader that is not the one that wrote it: what an
// upload would see. Needs python3 (see usePython3 in test-environment.ts).
import { execFileSync } from "node:child_process";

/** One entry as Python's zipfile sees it. */
export interface ZipEntryInfo {
  name: string;
  /** The Unix mode stored in the upper bits of the external attributes. */
  mode: number;
  /** [year, month, day, hour, minute, second], as zipfile reports `date_time`. */
  dateTime: number[];
  createSystem: number;
  isDir: boolean;
}

const SCRIPT = `
import json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    bad = z.testzip()
    if bad is not None:
        raise SystemExit("corrupt entry: " + bad)
    if len(sys.argv) > 2:
        z.extractall(sys.argv[2])
    print(json.dumps([{"name": i.filename, "mode": i.external_attr >> 16, "dateTime": list(i.date_time), "createSystem": i.create_system, "isDir": i.is_dir()} for i in z.infolist()]))
`;

/** Lists (and, given `extractTo`, extracts) the zip at `file`; throws when Python finds it corrupt. */
export function readZip(file: string, extractTo?: string): ZipEntryInfo[] {
  const output = execFileSync("python3", ["-c", SCRIPT, file, ...(extractTo ? [extractTo] : [])], { encoding: "utf8" });
  return JSON.parse(output) as ZipEntryInfo[];
}
