/*
 * What `tsc --pretty false` prints, read back: `file(line,col): error TSnnnn: message` and the message chain's further
 * lines (indented), flattened as the language service flattens a chain.
 */

/** The errors tsc reported, by file as it printed the path; lines it printed outside an error under "(unparsed)". */
export function errorsByFile(stdout: string): Map<string, string[]> {
  const reported = new Map<string, string[]>();
  let last: string[] | undefined;
  for (const line of stdout.split("\n")) {
    const error = /^(.+?)\(\d+,\d+\): error TS\d+: (.*)$/.exec(line);
    if (error) {
      const file = error[1]!;
      reported.set(file, [...(reported.get(file) ?? []), error[2]!]);
      last = reported.get(file);
    } else if (line.startsWith("  ") && last !== undefined) last[last.length - 1] += `\n${line}`;
    else if (line.trim() !== "") reported.set("(unparsed)", [...(reported.get("(unparsed)") ?? []), line]);
  }
  return reported;
}
