import QRCode from "qrcode";

/**
 * Ticket QR codes. Error correction M survives a scuffed print or a
 * cracked phone screen while keeping the code small; the four-module quiet zone is what scanners
 * need to find it; dark modules on white in every theme, because many scanners cannot read an
 * inverted code. The payload is only ever a signed ticket code (base32 and a dot), never text a
 * person typed, so the markup the library draws from it is safe to put in a page.
 */
const OPTIONS = {
  errorCorrectionLevel: "M",
  margin: 4,
  color: { dark: "#000000ff", light: "#ffffffff" },
} as const;

/** An SVG element for pages: scales to any size and stays sharp when printed. */
export async function qrSvg(payload: string): Promise<string> {
  const svg = await QRCode.toString(payload, { ...OPTIONS, type: "svg" });
  // The library draws no size; the page sizes it through CSS, and it is a picture, not text.
  return svg.replace("<svg ", '<svg width="100%" height="100%" aria-hidden="true" focusable="false" ');
}

/** pngjs's own options, which the library passes on: greyscale out of its RGBA drawing, "Up" filter. */
const PNG_ENCODING = { colorType: 0, inputColorType: 6, filterType: 2 };

/**
 * A PNG for emails, where SVG is not shown by most mail clients. Greyscale, each row stored as
 * its difference from the row above (PNG's "Up" filter: a QR code's rows repeat, so most become
 * zeros): about 1.2 kB and a third of the CPU of the library's default, an RGBA picture that
 * tries every filter on every row at the slowest compression. The confirmation email draws one
 * per ticket while a rush of orders is being paid.
 */
export function qrPng(payload: string, width = 264): Promise<Buffer> {
  return QRCode.toBuffer(payload, {
    ...OPTIONS,
    type: "png",
    width,
    rendererOpts: { deflateLevel: 6, ...PNG_ENCODING },
  });
}

/** Tickets with the SVG of their QR code, for pages; a ticket that admits no one gets none. */
export function withQrSvgs<T extends { qrPayload: string | null }>(tickets: T[]) {
  return Promise.all(
    tickets.map(async (ticket) => ({ ...ticket, qrSvg: ticket.qrPayload ? await qrSvg(ticket.qrPayload) : null })),
  );
}
