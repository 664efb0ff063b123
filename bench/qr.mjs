// What a ticket's QR code costs the server: the PNG a confirmation email carries (`qrPng`), drawn
// for real signed ticket codes, in a fresh process and once V8 has compiled the code, and how
// much of a code is the library choosing its mask pattern.
//
//   node bench/qr.mjs [--warm 500]
//
// A server that has just started draws its first codes at the first timing's cost: a rush of
// payments right after a start pays it in the emails drawn meanwhile (section "Checkout under
// load" of bench/README.md).
import { parseArgs } from "node:util";
import { register } from "tsx/esm/api";
import { isMain, printTable, runCli, writeResult } from "./helpers.mjs";

export async function main(argv = process.argv.slice(2)) {
  const { values } = parseArgs({ args: argv, options: { warm: { type: "string", default: "500" } } });
  const warm = Number(values.warm);
  if (!Number.isInteger(warm) || warm < 1) throw new Error("--warm must be a whole number above 0");
  register();
  const { QR_ERROR_CORRECTION, qrPng } = await import("../app/features/tickets/qr.server.ts");
  const { newTicketCode, signTicketCode } = await import("../app/features/tickets/ticket-codes.server.ts");
  const { default: QRCode } = await import("qrcode");
  const secret = "bench-secret-of-at-least-thirty-two-characters";
  const payloads = (count) => Array.from({ length: count }, () => signTicketCode(newTicketCode(), secret));
  /** Average milliseconds of `draw` over `count` new codes, one after another (codes made beforehand). */
  const timed = (count, draw) => {
    const inputs = payloads(count);
    const started = performance.now();
    for (const input of inputs) draw(input);
    return (performance.now() - started) / count;
  };
  /** `timed` once V8 has compiled `draw`: 100 codes first, untimed. */
  const timedWarm = (draw) => {
    timed(100, draw);
    return timed(warm, draw);
  };

  const first = timed(1, qrPng);
  const nextTen = timed(10, qrPng);
  const warmPng = timedWarm(qrPng);
  const level = { errorCorrectionLevel: QR_ERROR_CORRECTION };
  const warmModules = timedWarm((payload) => QRCode.create(payload, level));
  const warmOneMask = timedWarm((payload) => QRCode.create(payload, { ...level, maskPattern: 0 }));

  const ms = (value) => `${value.toFixed(3)} ms`;
  const share = (part) => `${Math.round((100 * part) / warmPng)} %`;
  console.log(
    `\nA ticket's QR code as the confirmation email draws it (payload of ${payloads(1)[0].length} characters)\n`,
  );
  printTable(
    ["measure", "value"],
    [
      ["the first code a fresh process draws", ms(first)],
      ["each of the next ten", ms(nextTen)],
      [`each of ${warm} more, once warm (after 110 drawn)`, ms(warmPng)],
      ["of which the code's modules, the best mask chosen (warm)", `${ms(warmModules)} (${share(warmModules)})`],
      ["the modules with one mask, for comparison (warm)", `${ms(warmOneMask)} (${share(warmOneMask)})`],
      ["choosing the mask (the difference)", `${ms(warmModules - warmOneMask)} (${share(warmModules - warmOneMask)})`],
    ],
    "lr",
  );
  const result = { first, nextTen, warmPng, warmModules, warmOneMask, warm };
  console.log(`Results: ${writeResult("qr", result)}`);
  return 0;
}

if (isMain(import.meta.url)) runCli(main);
