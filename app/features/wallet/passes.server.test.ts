import { execFileSync } from "node:child_process";
import { createHash, generateKeyPairSync } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { decodeProtectedHeader, importSPKI, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import {
  appleMemberCardPass,
  appleTicketPass,
  googleMemberCardLink,
  googleTicketLink,
  type TicketPassData,
} from "./passes.server";
import { testPassCertificates as testCertificates } from "./wallet.test-support";

// Wallet passes checked by tools this code did not write: a test CA, a stand-in for Apple's WWDR
// intermediate and a pass certificate made with OpenSSL; the `.pkpass` unzipped with unzip, its
// signature verified with `openssl smime -verify` against the test CA and every manifest hash
// recomputed; the Google save link's JWT verified with the test key.

const ticket: TicketPassData = {
  ticketId: "5f0b8f8e-8d52-4d0c-9a4e-2d1c6a1f4b3a",
  qrPayload: "7KQ2M9XD0A1BCDEFGHJKMNPQR0.ABCDEF",
  codeLabel: "7KQ2 M9XD 0A1B CDEF GHJK MNPQ R0",
  holder: "Sam Hartley",
  ticketType: "Weekend pass",
  event: {
    id: "0a9d3c5e-1111-4222-8333-944455556666",
    title: "Silverstone Festival of Speed",
    startsAt: new Date("2027-06-12T08:00:00Z"),
    endsAt: new Date("2027-06-13T17:00:00Z"),
    timeZone: "Europe/London",
    venue: "Silverstone Circuit",
    address: "Towcester NN12 8TN",
    latitude: 52.0786,
    longitude: -1.0169,
    whenLabel: "Sat 12 – Sun 13 June 2027",
  },
};
const site = { name: "Pitlane", url: "https://club.example" };

/** A `.pkpass` written out and unzipped with unzip: the folder of its files. */
function unzipPass(bytes: Buffer, dir: string, name: string) {
  const file = path.join(dir, `${name}.pkpass`);
  writeFileSync(file, bytes);
  const out = path.join(dir, name);
  execFileSync("unzip", ["-q", "-o", file, "-d", out]);
  return out;
}

/** `openssl smime -verify` of the pass's detached signature over its manifest, against the test CA; throws when it fails. */
function opensslVerify(out: string, caDir: string) {
  return execFileSync(
    "openssl",
    [
      ...["smime", "-verify", "-binary", "-inform", "DER", "-purpose", "any"],
      ...["-in", path.join(out, "signature"), "-content", path.join(out, "manifest.json")],
      ...["-CAfile", path.join(caDir, "ca.pem")],
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
}

const testConfig = (certs: ReturnType<typeof testCertificates>) => ({
  passTypeId: "pass.example.club",
  teamId: "TEAM123456",
  cert: certs.cert,
  key: certs.key,
  wwdr: certs.wwdr,
});

describe("an Apple Wallet pass", () => {
  it("is a .pkpass whose manifest hashes every file and whose signature OpenSSL verifies against the CA", async () => {
    const certs = testCertificates();
    const bytes = await appleTicketPass(ticket, testConfig(certs), site);
    const out = unzipPass(bytes, certs.dir, "ticket");
    const files = readdirSync(out).sort();
    expect(files).toEqual(
      expect.arrayContaining(["icon.png", "icon@2x.png", "manifest.json", "pass.json", "signature"]),
    );

    // Every file but the manifest and the signature is in the manifest with its SHA-1.
    const manifest = JSON.parse(readFileSync(path.join(out, "manifest.json"), "utf8")) as Record<string, string>;
    const listed = files.filter((name) => name !== "manifest.json" && name !== "signature");
    expect(Object.keys(manifest).sort()).toEqual(listed);
    for (const name of listed) {
      expect(manifest[name], name).toBe(
        createHash("sha1")
          .update(readFileSync(path.join(out, name)))
          .digest("hex"),
      );
    }

    // The detached PKCS #7 signature over the manifest verifies through the WWDR stand-in to the
    // root; a manifest changed after signing does not.
    expect(opensslVerify(out, certs.dir).toString()).toBe(readFileSync(path.join(out, "manifest.json"), "utf8"));
    writeFileSync(path.join(out, "manifest.json"), JSON.stringify({ ...manifest, "pass.json": "0".repeat(40) }));
    expect(() => opensslVerify(out, certs.dir)).toThrow();

    // The pass: an event ticket with the gate's QR code, the time and the place.
    const pass = JSON.parse(readFileSync(path.join(out, "pass.json"), "utf8"));
    expect(pass).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: "pass.example.club",
      teamIdentifier: "TEAM123456",
      serialNumber: ticket.ticketId,
      organizationName: "Pitlane",
      relevantDate: "2027-06-12T08:00:00.000Z",
      locations: [{ latitude: 52.0786, longitude: -1.0169 }],
      barcodes: [{ format: "PKBarcodeFormatQR", message: ticket.qrPayload }],
      eventTicket: { primaryFields: [{ key: "event", value: "Silverstone Festival of Speed" }] },
    });
  });
});

describe("a Google Wallet save link", () => {
  it("holds a JWT signed with the service account's key, with the ticket's class and object", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const config = {
      issuerId: "3388000000012345678",
      clientEmail: "wallet@club-project.iam.gserviceaccount.com",
      privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    };
    const link = await googleTicketLink(ticket, config, site);
    expect(link).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\/[\w-]+\.[\w-]+\.[\w-]+$/);
    const jwt = link.split("/").pop()!;
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: "RS256", typ: "JWT" });
    const key = await importSPKI(publicKey.export({ type: "spki", format: "pem" }).toString(), "RS256");
    const { payload } = await jwtVerify(jwt, key, { issuer: config.clientEmail, audience: "google" });
    expect(payload).toMatchObject({ typ: "savetowallet", origins: ["https://club.example"] });
    const body = payload.payload as {
      eventTicketClasses: Record<string, unknown>[];
      eventTicketObjects: Record<string, unknown>[];
    };
    const [ticketClass] = body.eventTicketClasses;
    const [ticketObject] = body.eventTicketObjects;
    // The shapes Google's eventTicketClass and eventTicketObject take: ids under the issuer's.
    expect(ticketClass).toMatchObject({
      id: expect.stringMatching(/^3388000000012345678\.[\w.-]+$/),
      issuerName: "Pitlane",
      eventName: { defaultValue: { language: "en-GB", value: "Silverstone Festival of Speed" } },
      dateTime: { start: "2027-06-12T08:00:00.000Z", end: "2027-06-13T17:00:00.000Z" },
    });
    expect(ticketObject).toMatchObject({
      id: expect.stringMatching(/^3388000000012345678\.[\w.-]+$/),
      classId: ticketClass!.id,
      state: "ACTIVE",
      barcode: { type: "QR_CODE", value: ticket.qrPayload },
      ticketHolderName: "Sam Hartley",
    });
    // Signed by someone else's key, it does not verify.
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey;
    await expect(
      jwtVerify(jwt, await importSPKI(other.export({ type: "spki", format: "pem" }).toString(), "RS256")),
    ).rejects.toThrow();
  });
});

describe("the member card in a wallet", () => {
  const card = {
    membershipId: "9a8b7c6d-1111-4222-8333-444455556666",
    qrPayload: "0123456789ABCDEFGHJKMNPQRS.XYZ",
    codeLabel: "0123 4567 89AB CDEF GHJK MNPQ RS",
    holder: "Sam Hartley",
    tierName: "Annual",
    validUntil: new Date("2027-12-31T23:59:59Z"),
    validUntilLabel: "31 December 2027",
  };

  it("is a generic Apple pass with the card's QR, signed as tickets are", async () => {
    const certs = testCertificates();
    const bytes = await appleMemberCardPass(card, testConfig(certs), site);
    const out = unzipPass(bytes, certs.dir, "card");
    opensslVerify(out, certs.dir);
    const pass = JSON.parse(readFileSync(path.join(out, "pass.json"), "utf8"));
    expect(pass).toMatchObject({
      serialNumber: `member-${card.membershipId}`,
      generic: { primaryFields: [{ value: "Sam Hartley" }] },
      barcodes: [{ format: "PKBarcodeFormatQR", message: card.qrPayload }],
      expirationDate: "2027-12-31T23:59:59.000Z",
    });
  });

  it("is a Google generic object with the card's QR in a JWT the test key verifies", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const link = await googleMemberCardLink(
      card,
      {
        issuerId: "3388000000012345678",
        clientEmail: "w@x.iam.gserviceaccount.com",
        privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      },
      site,
    );
    const jwt = link.split("/").pop()!;
    const { payload } = await jwtVerify(
      jwt,
      await importSPKI(publicKey.export({ type: "spki", format: "pem" }).toString(), "RS256"),
      { audience: "google" },
    );
    expect(payload.payload).toMatchObject({
      genericObjects: [
        {
          classId: "3388000000012345678.member-card",
          header: { defaultValue: { value: "Sam Hartley" } },
          barcode: { type: "QR_CODE", value: card.qrPayload },
        },
      ],
    });
  });
});
