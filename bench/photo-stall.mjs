// Whether large photos stall the site: while a member uploads several very large HEIC photos at
// once, how quickly do /healthz and a page from the page cache still answer?
//
//   node bench/photo-stall.mjs [--files 4] [--interval 20] [--page /events] [--baseline 10] [--heic FILE]
//
// Starts the built server (fresh embedded database with the demo content), signs the demo member
// in, loads `--page` once as a visitor so the page cache holds it, and then, with both probes
// running, sends `--files` uploads of the same 60-megapixel HEIC photo at the same moment to one
// of the member's cars, one file per request, as the uploader does. Each probe asks for its
// address every `--interval` ms, whether or not the requests before were answered, from the
// moment the uploads start until the last one is answered, and prints p50, p99 and max of those
// answers' times, each from when its request was sent.
// First, for `--baseline` seconds, the same probes run with no upload: what the machine gives an
// idle server at that moment, the floor the figures under uploads are to be read against (on a
// shared machine that floor moves from minute to minute).
//
// The HEIC is made once, with libheif's `heif-enc` (Debian: `apt-get install libheif-examples`),
// from a 9504 × 6336 picture drawn with sharp, and kept in the system's temporary folder
// (`pitlane-bench-cache/`); `--heic FILE` uses another. It weighs about 100 kB: a picture of a
// few flat colours, which costs the decoder as many pixels as a real photo would.

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { isMain, printTable, runCli, startServer, warnIfBusy, writeResult } from "./helpers.mjs";

const DEMO_MEMBER = { email: "member@pitlane.test", password: "pitlane-member-demo" };
const WIDTH = 9504;
const HEIGHT = 6336;

/** The 60-megapixel HEIC, made once and kept in the temporary folder. */
async function heicInput() {
  const dir = path.join(os.tmpdir(), "pitlane-bench-cache");
  const file = path.join(dir, `car-${WIDTH}x${HEIGHT}.heic`);
  if (existsSync(file)) return file;
  if (spawnSync("heif-enc", ["--version"]).error) {
    throw new Error("heif-enc is needed once to make the HEIC input: apt-get install libheif-examples");
  }
  mkdirSync(dir, { recursive: true });
  console.log(`Making the ${WIDTH} × ${HEIGHT} HEIC input once (a minute or two)…`);
  const plate = { x: WIDTH * 0.35, y: HEIGHT * 0.7, w: WIDTH * 0.3, h: HEIGHT * 0.1 };
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}"><defs><linearGradient id="g"><stop offset="0" stop-color="#2a5bd7"/><stop offset="1" stop-color="#17191c"/></linearGradient></defs><rect width="${WIDTH}" height="${HEIGHT}" fill="url(#g)"/><circle cx="${WIDTH * 0.3}" cy="${HEIGHT * 0.4}" r="${HEIGHT * 0.2}" fill="#c33"/><rect x="${plate.x}" y="${plate.y}" width="${plate.w}" height="${plate.h}" fill="#f5d90a"/><text x="${plate.x + plate.w / 2}" y="${plate.y + plate.h * 0.78}" font-size="${plate.h * 0.8}" font-family="sans-serif" font-weight="bold" text-anchor="middle" fill="#000">AB12 CDE</text></svg>`;
  const png = path.join(dir, "source.png");
  await sharp(Buffer.from(svg), { limitInputPixels: false }).png({ compressionLevel: 1 }).toFile(png);
  execFileSync("heif-enc", ["-q", "50", "-o", `${file}.tmp`, png], { stdio: "ignore" });
  renameSync(`${file}.tmp`, file);
  return file;
}

/** One request; resolves with its status, headers, body and how long the answer took (ms). */
function send(origin, agent, { method = "GET", path: target, headers = {}, body }) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(`${origin}${target}`, { method, agent, headers }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode,
          headers: res.headers,
          body: Buffer.concat(chunks),
          ms: performance.now() - started,
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

const cookiesOf = (response) =>
  (response.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]).filter((pair) => !pair.endsWith("="));

/** Signs the demo member in with the sign-in form; returns the Cookie header. */
async function signIn(origin, agent) {
  const response = await send(origin, agent, {
    method: "POST",
    path: "/login",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
    body: new URLSearchParams({ intent: "password", ...DEMO_MEMBER }).toString(),
  });
  const cookies = cookiesOf(response).filter((cookie) => cookie.includes("session_token"));
  if (response.status !== 302 || cookies.length === 0) {
    throw new Error(`signing in as ${DEMO_MEMBER.email} answered ${response.status}`);
  }
  return cookies.join("; ");
}

/** The first car in the member's garage. */
async function firstCar(origin, agent, cookie) {
  const page = await send(origin, agent, { path: "/members/garage", headers: { Cookie: cookie } });
  const match = /href="\/members\/garage\/([0-9a-f-]{36})"/.exec(page.body.toString());
  if (!match) throw new Error("the demo member has no car in /members/garage");
  return match[1];
}

/** A multipart body with one file in the `photos` field, as the uploader sends it. */
function uploadBody(bytes, name) {
  const boundary = `----pitlane${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="${name}"\r\nContent-Type: image/heic\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, bytes, tail]), type: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Asks for `target` every `interval` ms until `until` settles, whether or not the requests before
 * were answered, and answers every answer's time from when its request was sent: a stall of the
 * server shows in every request sent during it, not in the one that happened to be waiting.
 */
async function probe(origin, target, interval, until) {
  const agent = new Agent({ keepAlive: true });
  const times = [];
  const statuses = new Map();
  const sent = [];
  let done = false;
  until.finally(() => {
    done = true;
  });
  const started = performance.now();
  for (let tick = 0; !done; tick++) {
    sent.push(
      send(origin, agent, { path: target, headers: { "Accept-Encoding": "gzip" } }).then((response) => {
        times.push(response.ms);
        const key = `${response.status}${response.headers["x-cache"] ? ` ${response.headers["x-cache"]}` : ""}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }),
    );
    const wait = started + (tick + 1) * interval - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  await Promise.all(sent);
  agent.destroy();
  return { times, statuses: Object.fromEntries(statuses) };
}

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function summary(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? 0,
  };
}

export async function main(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      files: { type: "string", default: "4" },
      interval: { type: "string", default: "20" },
      page: { type: "string", default: "/events" },
      baseline: { type: "string", default: "10" },
      heic: { type: "string" },
      "no-save": { type: "boolean", default: false },
    },
  });
  const files = Number(values.files);
  const interval = Number(values.interval);
  const baselineMs = Number(values.baseline) * 1000;
  if (!(baselineMs >= 0)) throw new Error("--baseline must be a number of seconds");
  if (!Number.isInteger(files) || files < 1) throw new Error("--files must be a whole number above 0");
  const heic = values.heic ?? (await heicInput());
  const bytes = readFileSync(heic);
  const meta = await sharp(bytes).metadata();
  warnIfBusy();

  const server = await startServer({ timeoutMs: 600_000 });
  try {
    const agent = new Agent({ keepAlive: true });
    const cookie = await signIn(server.origin, agent);
    const carId = await firstCar(server.origin, agent, cookie);
    // Twice: the first visit renders and keeps the page, the second comes from the cache.
    await send(server.origin, agent, { path: values.page });
    const warm = await send(server.origin, agent, { path: values.page });
    if (!["HIT", "STALE"].includes(warm.headers["x-cache"])) {
      console.warn(`warning: ${values.page} answered X-Cache ${warm.headers["x-cache"] ?? "(none)"} when warm`);
    }

    console.log(`Probing /healthz and ${values.page} every ${interval} ms for ${baselineMs / 1000} s, with no upload…`);
    const quiet = new Promise((resolve) => setTimeout(resolve, baselineMs));
    const [idleHealth, idlePage] = await Promise.all([
      probe(server.origin, "/healthz", interval, quiet),
      probe(server.origin, values.page, interval, quiet),
    ]);
    console.log(
      `Uploading ${files} × ${path.basename(heic)} (${meta.width} × ${meta.height}, ${(bytes.length / 1024).toFixed(0)} kB) at once to ${carId}, probing /healthz and ${values.page} every ${interval} ms…`,
    );
    const started = performance.now();
    const uploads = Promise.all(
      Array.from({ length: files }, async (_, index) => {
        const { body, type } = uploadBody(bytes, `car-${index + 1}.heic`);
        const response = await send(server.origin, new Agent(), {
          method: "POST",
          path: `/members/garage/${carId}/photos`,
          headers: {
            "Content-Type": type,
            "Content-Length": String(body.length),
            Accept: "application/json",
            Origin: server.origin,
            Cookie: cookie,
          },
          body,
        });
        let answer = "";
        try {
          const json = JSON.parse(response.body.toString());
          answer = json.outcomes?.map((outcome) => (outcome.ok ? "added" : outcome.message)).join(" ") ?? "";
        } catch {
          answer = response.body.toString().slice(0, 120);
        }
        return { status: response.status, ms: response.ms, answer };
      }),
    );
    const [health, page, answered] = await Promise.all([
      probe(server.origin, "/healthz", interval, uploads),
      probe(server.origin, values.page, interval, uploads),
      uploads,
    ]);
    const windowMs = performance.now() - started;

    console.log(`\nAll ${files} uploads answered after ${(windowMs / 1000).toFixed(1)} s:`);
    for (const [index, upload] of answered.entries()) {
      console.log(`  ${index + 1}. ${upload.status} after ${(upload.ms / 1000).toFixed(1)} s: ${upload.answer}`);
    }
    const rows = [
      ["/healthz", health, "uploads"],
      [values.page, page, "uploads"],
      ["/healthz", idleHealth, "none"],
      [values.page, idlePage, "none"],
    ].map(([name, result, during]) => ({ name, during, ...summary(result.times), statuses: result.statuses }));
    console.log("");
    printTable(
      ["probe", "during", "answers", "p50 ms", "p99 ms", "max ms", "statuses"],
      rows.map((row) => [
        row.name,
        row.during,
        row.count,
        row.p50.toFixed(1),
        row.p99.toFixed(1),
        row.max.toFixed(1),
        Object.entries(row.statuses)
          .map(([status, count]) => `${status} × ${count}`)
          .join(", "),
      ]),
      "llrrrrl",
    );
    const slowest = Math.max(...rows.filter((row) => row.during === "uploads").map((row) => row.p99));
    console.log(`\nTarget: p99 < 300 ms for both probes during the uploads: ${slowest < 300 ? "met" : "NOT met"}`);
    if (!values["no-save"]) {
      const file = writeResult("photo-stall", {
        files,
        intervalMs: interval,
        baselineMs,
        page: values.page,
        heic: { file: path.basename(heic), width: meta.width, height: meta.height, bytes: bytes.length },
        windowMs,
        uploads: answered,
        probes: rows,
      });
      console.log(`Saved ${file}`);
    }
    return slowest < 300 ? 0 : 1;
  } finally {
    await server.stop();
  }
}

if (isMain(import.meta.url)) runCli(main);
