// `npm run verify-draw -- <record>`: checks a prize draw from its published record, without
// trusting the site. <record> is a file, an https:// URL of a record, or a draw's slug with
// --site https://club.example (the record is at /giveaways/<slug>/verify.json).
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { parsePublishedDraw, verifyReport } from "../app/features/draws/verify-report";

const usage = "Usage: npm run verify-draw -- <file | https://…/verify.json | slug --site https://club.example>";

async function load(target: string, site: string | undefined) {
  if (/^https?:\/\//.test(target) || site) {
    const url = site ? new URL(`/giveaways/${encodeURIComponent(target)}/verify.json`, site) : new URL(target);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return response.json();
  }
  return JSON.parse(await readFile(target, "utf8"));
}

async function main() {
  const { values, positionals } = parseArgs({ options: { site: { type: "string" } }, allowPositionals: true });
  const [target] = positionals;
  if (!target) {
    console.error(usage);
    return 2;
  }
  try {
    const report = await verifyReport(parsePublishedDraw(await load(target, values.site)));
    for (const line of report.lines) console.log(line);
    return report.ok ? 0 : 1;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return 1;
  }
}

process.exitCode = await main();
