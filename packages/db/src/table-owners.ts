/**
 * The owners check of docs/table-owners.md (run by table-owners.test.ts): which tables the
 * migrations create, who owns each according to the page, and which SQL names a table outside its
 * owner's folder.
 */

/** Tables the migrations leave in place: every CREATE TABLE, minus those a later migration drops. */
export function tablesOfMigrations(sqlFiles: string[]): string[] {
  const tables = new Set<string>();
  for (const sql of sqlFiles) {
    for (const m of sql.matchAll(/\bcreate\s+table\s+(?:if\s+not\s+exists\s+)?([a-z_][a-z0-9_]*)/gi))
      tables.add(m[1]!.toLowerCase());
    for (const m of sql.matchAll(/\bdrop\s+table\s+(?:if\s+exists\s+)?([a-z_][a-z0-9_]*)/gi))
      tables.delete(m[1]!.toLowerCase());
  }
  return [...tables].sort();
}

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());
const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/**
 * The owners table (a row: tables in backticks, then the owner's folder in backticks) and the
 * "Allowed crossings" table (a row: file, tables read) as `path table` pairs.
 */
export function ownersFromDoc(page: string): {
  owners: Map<string, string>;
  duplicates: string[];
  allowed: Set<string>;
} {
  const [ownersPart, allowedPart = ''] = page.split(/^## Allowed crossings$/m);
  const owners = new Map<string, string>();
  const duplicates: string[] = [];
  for (const line of ownersPart!.split('\n').filter((l) => l.startsWith('|'))) {
    const [tables = '', owner = ''] = cells(line);
    const folder = ticked(owner)[0];
    if (!folder || !/^(apps|packages)\//.test(folder)) continue;
    for (const t of ticked(tables)) {
      if (owners.has(t)) duplicates.push(t);
      else owners.set(t, folder);
    }
  }
  const allowed = new Set<string>();
  for (const line of allowedPart.split('\n').filter((l) => l.startsWith('|'))) {
    const [file = '', tables = ''] = cells(line);
    const path = ticked(file)[0];
    if (path) for (const t of ticked(tables)) allowed.add(`${path} ${t}`);
  }
  return { owners, duplicates, allowed };
}

const withoutComments = (ts: string) => ts.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** Each (file, table) where SQL in the file reads or writes a table its folder does not own. */
export function foreignSql(
  files: { path: string; text: string }[],
  owners: Map<string, string>,
): { path: string; table: string }[] {
  const out: { path: string; table: string }[] = [];
  for (const f of files) {
    const named = new Set<string>();
    for (const m of withoutComments(f.text).matchAll(/\b(?:from|join|into|update)\s+([a-z_][a-z0-9_]*)\b/gi)) {
      const table = m[1]!.toLowerCase();
      const owner = owners.get(table);
      if (owner && !f.path.startsWith(`${owner}/`)) named.add(table);
    }
    out.push(...[...named].sort().map((table) => ({ path: f.path, table })));
  }
  return out;
}
