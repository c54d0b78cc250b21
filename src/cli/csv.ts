/**
 * Rows of a CSV (or TSV) text as records keyed by the header row, RFC 4180 quoting: fields in
 * double quotes may hold the separator, line breaks and "" for a quote. Values stay text.
 */
export function parseDelimited(text: string, separator: "," | "\t"): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a byte-order mark is not part of the first name
  const endField = () => {
    row.push(field);
    field = "";
  };
  const endRow = () => {
    endField();
    if (row.length > 1 || row[0] !== "") rows.push(row);
    row = [];
  };
  for (; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === separator) endField();
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      endRow();
    } else field += c;
  }
  if (quoted) throw new Error("unterminated quoted field at the end of the file");
  if (field !== "" || row.length > 0) endRow();
  const [header, ...body] = rows;
  if (header === undefined) return [];
  return body.map((cells, r) => {
    if (cells.length !== header.length) {
      throw new Error(`row ${r + 2} has ${cells.length} fields; the header has ${header.length}`);
    }
    return Object.fromEntries(header.map((name, c) => [name, cells[c] ?? ""]));
  });
}
