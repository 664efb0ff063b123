import { readFileSync } from "node:fs";
import path from "node:path";
import { importPKCS8, SignJWT } from "jose";
import { PKPass } from "passkit-generator";
import sharp from "sharp";
import type { Env } from "~/server/env.server";

/**
 * Wallet passes for tickets (docs/gate.md, "Wallet passes"): an Apple Wallet `.pkpass` signed with
 * the club's Pass Type ID certificate, and a Google Wallet save link whose JWT is signed with the
 * club's service-account key. Both carry the QR code the gate reads, and the event's time and
 * place, so the pass comes up on the lock screen. Built with maintained libraries
 * (passkit-generator, jose); nothing here writes a signature or a zip by hand.
 */

/** What a pass shows of one ticket. */
export type TicketPassData = {
  ticketId: string;
  /** What the QR holds: the signed code the gate reads. */
  qrPayload: string;
  /** The code in groups of four, printed under the QR. */
  codeLabel: string;
  holder: string;
  ticketType: string;
  event: {
    id: string;
    title: string;
    startsAt: Date;
    endsAt: Date;
    timeZone: string;
    venue: string;
    address: string | null;
    latitude: number | null;
    longitude: number | null;
    whenLabel: string;
  };
};

/** What a pass shows of a member card. */
export type MemberCardPassData = {
  membershipId: string;
  qrPayload: string;
  codeLabel: string;
  holder: string;
  tierName: string;
  validUntil: Date;
  validUntilLabel: string;
};

type AppleConfig = {
  passTypeId: string;
  teamId: string;
  cert: Buffer;
  key: Buffer;
  passphrase?: string;
  wwdr: Buffer;
};

type GoogleConfig = { issuerId: string; clientEmail: string; privateKey: string };

/** The Apple Wallet settings from the environment, or null when Apple Wallet is not set up. */
export function appleWalletConfig(env: Env): AppleConfig | null {
  if (!env.APPLE_WALLET_PASS_TYPE_ID || !env.APPLE_WALLET_TEAM_ID) return null;
  if (!env.APPLE_WALLET_CERT_FILE || !env.APPLE_WALLET_KEY_FILE || !env.APPLE_WALLET_WWDR_FILE) return null;
  return {
    passTypeId: env.APPLE_WALLET_PASS_TYPE_ID,
    teamId: env.APPLE_WALLET_TEAM_ID,
    cert: readFileSync(env.APPLE_WALLET_CERT_FILE),
    key: readFileSync(env.APPLE_WALLET_KEY_FILE),
    passphrase: env.APPLE_WALLET_KEY_PASSPHRASE,
    wwdr: readFileSync(env.APPLE_WALLET_WWDR_FILE),
  };
}

/** The Google Wallet settings from the environment, or null when Google Wallet is not set up. */
export function googleWalletConfig(env: Env): GoogleConfig | null {
  if (!env.GOOGLE_WALLET_ISSUER_ID || !env.GOOGLE_WALLET_KEY_FILE) return null;
  const key = JSON.parse(readFileSync(env.GOOGLE_WALLET_KEY_FILE, "utf8")) as {
    client_email?: string;
    private_key?: string;
  };
  if (!key.client_email || !key.private_key) {
    throw new Error("GOOGLE_WALLET_KEY_FILE must be a service account key with client_email and private_key");
  }
  return { issuerId: env.GOOGLE_WALLET_ISSUER_ID, clientEmail: key.client_email, privateKey: key.private_key };
}

/** Which wallets the member's ticket page offers. */
export function walletsOn(env: Env) {
  return {
    apple: Boolean(env.APPLE_WALLET_PASS_TYPE_ID && env.APPLE_WALLET_CERT_FILE),
    google: Boolean(env.GOOGLE_WALLET_ISSUER_ID && env.GOOGLE_WALLET_KEY_FILE),
  };
}

const icons = new Map<number, Promise<Buffer>>();

/** The club's mark as a PNG of `size` pixels, from the same SVG as the site's icons. */
function mark(size: number) {
  let icon = icons.get(size);
  if (!icon) {
    const source = readFileSync(path.resolve(process.cwd(), "public/favicon.svg"));
    icon = sharp(source, { density: Math.max(72, (size / 32) * 72) })
      .resize(size, size)
      .png()
      .toBuffer();
    icons.set(size, icon);
  }
  return icon;
}

/** An Apple Wallet event ticket for one ticket, signed: the `.pkpass` file's bytes. */
export async function appleTicketPass(
  data: TicketPassData,
  config: AppleConfig,
  site: { name: string; url: string },
): Promise<Buffer> {
  const { event } = data;
  const passJson = {
    ...passHeader(config, site, { serialNumber: data.ticketId, description: `${event.title} ticket` }),
    eventTicket: {
      primaryFields: [{ key: "event", label: "Event", value: event.title }],
      secondaryFields: [
        { key: "when", label: "When", value: event.whenLabel },
        { key: "where", label: "Where", value: event.venue },
      ],
      auxiliaryFields: [
        { key: "ticket", label: "Ticket", value: data.ticketType },
        { key: "holder", label: "Holder", value: data.holder },
      ],
      backFields: [
        { key: "code", label: "Ticket code", value: data.codeLabel },
        ...(event.address ? [{ key: "address", label: "Address", value: event.address }] : []),
        { key: "site", label: "Your tickets", value: `${site.url}/members/events` },
      ],
    },
    barcodes: qrBarcodes(data),
    relevantDate: event.startsAt.toISOString(),
    expirationDate: event.endsAt.toISOString(),
    ...(event.latitude !== null && event.longitude !== null
      ? {
          locations: [
            { latitude: event.latitude, longitude: event.longitude, relevantText: `Welcome to ${event.title}` },
          ],
        }
      : {}),
  };
  return signedPass(passJson, config);
}

/** What every pass.json of the club starts with: who issues it, what it is, the club's colours. */
function passHeader(config: AppleConfig, site: { name: string }, pass: { serialNumber: string; description: string }) {
  return {
    formatVersion: 1,
    passTypeIdentifier: config.passTypeId,
    teamIdentifier: config.teamId,
    organizationName: site.name,
    ...pass,
    foregroundColor: "rgb(255, 255, 255)",
    backgroundColor: "rgb(17, 18, 20)",
    labelColor: "rgb(249, 115, 22)",
  };
}

/** The QR code the gate reads, with the typed code under it. */
function qrBarcodes(data: { qrPayload: string; codeLabel: string }) {
  return [
    { format: "PKBarcodeFormatQR", message: data.qrPayload, messageEncoding: "iso-8859-1", altText: data.codeLabel },
  ];
}

/** The `.pkpass` of this pass.json, with the club's mark as icon and logo, signed. */
async function signedPass(passJson: Record<string, unknown>, config: AppleConfig) {
  const pass = new PKPass(
    {
      "pass.json": Buffer.from(JSON.stringify(passJson)),
      "icon.png": await mark(29),
      "icon@2x.png": await mark(58),
      "icon@3x.png": await mark(87),
      "logo.png": await mark(50),
      "logo@2x.png": await mark(100),
    },
    {
      signerCert: config.cert,
      signerKey: config.key,
      wwdr: config.wwdr,
      ...(config.passphrase ? { signerKeyPassphrase: config.passphrase } : {}),
    },
  );
  return pass.getAsBuffer();
}

/** An Apple Wallet pass of the member card: who, which tier, until when, and the card's QR code. */
export async function appleMemberCardPass(
  data: MemberCardPassData,
  config: AppleConfig,
  site: { name: string; url: string },
): Promise<Buffer> {
  return signedPass(
    {
      ...passHeader(config, site, {
        serialNumber: `member-${data.membershipId}`,
        description: `${site.name} member card`,
      }),
      generic: {
        primaryFields: [{ key: "member", label: "Member", value: data.holder }],
        secondaryFields: [
          { key: "tier", label: "Membership", value: data.tierName },
          { key: "until", label: "Valid until", value: data.validUntilLabel },
        ],
        backFields: [
          { key: "code", label: "Card code", value: data.codeLabel },
          { key: "site", label: "Your card", value: `${site.url}/members/card` },
        ],
      },
      barcodes: qrBarcodes(data),
      expirationDate: data.validUntil.toISOString(),
    },
    config,
  );
}

/** The Google Wallet save link of the member card: a generic pass with the card's QR code. */
export async function googleMemberCardLink(
  data: MemberCardPassData,
  config: GoogleConfig,
  site: { name: string; url: string },
) {
  const classId = `${config.issuerId}.member-card`;
  const genericObject = {
    id: `${config.issuerId}.${googleId(`member-${data.membershipId}`)}`,
    classId,
    state: "ACTIVE",
    cardTitle: { defaultValue: { language: "en-GB", value: `${site.name} member card` } },
    header: { defaultValue: { language: "en-GB", value: data.holder } },
    subheader: { defaultValue: { language: "en-GB", value: data.tierName } },
    barcode: { type: "QR_CODE", value: data.qrPayload, alternateText: data.codeLabel },
    validTimeInterval: { end: { date: data.validUntil.toISOString() } },
  };
  return saveLink({ genericClasses: [{ id: classId }], genericObjects: [genericObject] }, config, site);
}

/** A Google Wallet id part: letters, digits, ".", "_" and "-" only. */
const googleId = (value: string) => value.replace(/[^\w.-]/g, "_");

/**
 * The Google Wallet save link for one ticket: a JWT, signed with the service account's key, that
 * holds the event's ticket class and this ticket's object, with the QR code the gate reads.
 */
export async function googleTicketLink(
  data: TicketPassData,
  config: GoogleConfig,
  site: { name: string; url: string },
) {
  const { event } = data;
  const classId = `${config.issuerId}.${googleId(`event-${event.id}`)}`;
  const eventTicketClass = {
    id: classId,
    issuerName: site.name,
    reviewStatus: "UNDER_REVIEW",
    eventName: { defaultValue: { language: "en-GB", value: event.title } },
    venue: {
      name: { defaultValue: { language: "en-GB", value: event.venue } },
      address: { defaultValue: { language: "en-GB", value: event.address ?? event.venue } },
    },
    dateTime: { start: event.startsAt.toISOString(), end: event.endsAt.toISOString() },
    ...(event.latitude !== null && event.longitude !== null
      ? { locations: [{ latitude: event.latitude, longitude: event.longitude }] }
      : {}),
  };
  const eventTicketObject = {
    id: `${config.issuerId}.${googleId(`ticket-${data.ticketId}`)}`,
    classId,
    state: "ACTIVE",
    ticketHolderName: data.holder,
    ticketType: { defaultValue: { language: "en-GB", value: data.ticketType } },
    barcode: { type: "QR_CODE", value: data.qrPayload, alternateText: data.codeLabel },
    validTimeInterval: { start: { date: event.startsAt.toISOString() }, end: { date: event.endsAt.toISOString() } },
  };
  return saveLink({ eventTicketClasses: [eventTicketClass], eventTicketObjects: [eventTicketObject] }, config, site);
}

/** Google Wallet's save link for these classes and objects, in a JWT signed with the service account's key. */
async function saveLink(payload: Record<string, unknown>, config: GoogleConfig, site: { url: string }) {
  const key = await importPKCS8(config.privateKey, "RS256");
  const jwt = await new SignJWT({ origins: [site.url], typ: "savetowallet", payload })
    .setProtectedHeader({ alg: "RS256", typ: "JWT" })
    .setIssuer(config.clientEmail)
    .setAudience("google")
    .setIssuedAt()
    .sign(key);
  return `https://pay.google.com/gp/v/save/${jwt}`;
}
