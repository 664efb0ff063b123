import { and, eq, inArray, isNull, or } from "drizzle-orm";
import { accountEmail, type Branding } from "~/features/accounts/emails.server";
import { recordAudit } from "~/features/audit/audit.server";
import type { Db } from "~/server/db/client.server";
import type { OutboundEmail } from "~/server/mail/mail.server";
import { carPhotos, carReports, cars, type ReportStatus, users } from "../../../db/schema";
import type { Decision } from "./schemas";

/** The stored files of a removed photo; the media store deletes every rendition of it. */
export type PhotoFiles = { hash: string; sourceKey: string };
/** `keep` names what another photo still uses: its renditions (same hash) or its original. */
type PhotoFilesToDelete = PhotoFiles & { keep: { renditions: boolean; original: boolean } };
export type DeletePhotoFiles = (photo: PhotoFilesToDelete) => Promise<void>;

export type DecisionInput = {
  actorId: string;
  carId: string;
  photoId?: string;
  decision: Decision;
  note: string;
  ip?: string | null;
};

export type DecisionOutcome =
  | { ok: true; email: OutboundEmail | null; message: string }
  | { ok: false; field?: "photoId" | "decision"; message: string };

const ENDS: Record<Decision, { from: ReportStatus[]; to: ReportStatus }> = {
  hide: { from: ["open"], to: "hidden" },
  restore: { from: ["open", "hidden"], to: "restored" },
  remove: { from: ["open", "hidden"], to: "removed" },
  dismiss: { from: ["open"], to: "dismissed" },
};

/**
 * A moderator's decision on a car or one of its photos, from the reports about it:
 * - hide: the car (or photo) disappears from every page but its owner's and staff's at once;
 * - restore: it shows again;
 * - remove: the photo, or the whole car, is deleted, files included;
 * - dismiss: the reports were unfounded; nothing changes for the car.
 * The reports about that car (or photo) are closed with the decision, the decision is audited in
 * the same transaction, and the owner gets the note by email (returned, for the outbox).
 * Stored files are deleted once the rows are gone, so a failed transaction never loses a photo.
 */
export async function decideOnCar(
  db: Db,
  input: DecisionInput,
  services: { brand: Branding; deletePhotoFiles: DeletePhotoFiles },
): Promise<DecisionOutcome> {
  const now = new Date();
  const result = await db.transaction(async (tx) => {
    const [car] = await tx
      .select({
        id: cars.id,
        make: cars.make,
        model: cars.model,
        year: cars.year,
        hiddenAt: cars.hiddenAt,
        ownerEmail: users.email,
        ownerName: users.name,
      })
      .from(cars)
      .innerJoin(users, eq(users.id, cars.ownerId))
      .where(eq(cars.id, input.carId))
      .for("update", { of: cars });
    if (!car) return { ok: false as const, message: "This car no longer exists: it may have been deleted." };
    let photo: { id: string; hash: string; sourceKey: string; hiddenAt: Date | null } | undefined;
    if (input.photoId) {
      [photo] = await tx
        .select({
          id: carPhotos.id,
          hash: carPhotos.hash,
          sourceKey: carPhotos.sourceKey,
          hiddenAt: carPhotos.hiddenAt,
        })
        .from(carPhotos)
        .where(and(eq(carPhotos.id, input.photoId), eq(carPhotos.carId, car.id)));
      if (!photo) return { ok: false as const, field: "photoId" as const, message: "This photo no longer exists." };
    }
    const target: "car" | "photo" = photo ? "photo" : "car";
    const hiddenNow = photo ? photo.hiddenAt !== null : car.hiddenAt !== null;
    if (input.decision === "restore" && !hiddenNow) {
      return { ok: false as const, field: "decision" as const, message: `This ${target} is not hidden.` };
    }
    if (input.decision === "hide" && hiddenNow) {
      return { ok: false as const, field: "decision" as const, message: `This ${target} is already hidden.` };
    }

    const reportsOf = and(
      eq(carReports.carId, car.id),
      photo ? eq(carReports.photoId, photo.id) : isNull(carReports.photoId),
      inArray(carReports.status, ENDS[input.decision].from),
    );
    const closed = await tx
      .update(carReports)
      .set({ status: ENDS[input.decision].to, decidedBy: input.actorId, decidedAt: now, decisionNote: input.note })
      .where(reportsOf)
      .returning({ id: carReports.id });

    const files: PhotoFilesToDelete[] = [];
    if (input.decision === "hide" || input.decision === "restore") {
      const hiddenAt = input.decision === "hide" ? now : null;
      if (photo) await tx.update(carPhotos).set({ hiddenAt }).where(eq(carPhotos.id, photo.id));
      else
        await tx
          .update(cars)
          .set({ hiddenAt, hiddenReason: hiddenAt ? input.note : null, featuredAt: hiddenAt ? null : undefined })
          .where(eq(cars.id, car.id));
    } else if (input.decision === "remove") {
      const gone = photo
        ? await tx
            .delete(carPhotos)
            .where(eq(carPhotos.id, photo.id))
            .returning({ hash: carPhotos.hash, sourceKey: carPhotos.sourceKey })
        : await tx
            .delete(carPhotos)
            .where(eq(carPhotos.carId, car.id))
            .returning({ hash: carPhotos.hash, sourceKey: carPhotos.sourceKey });
      if (photo) {
        await tx
          .update(cars)
          .set({ coverPhotoId: null })
          .where(and(eq(cars.id, car.id), eq(cars.coverPhotoId, photo.id)));
      } else {
        await tx.delete(cars).where(eq(cars.id, car.id));
      }
      // The same picture uploaded twice shares its files: keep them while another photo uses them.
      // A photo blurred again has new renditions but the same original, so each is counted apart.
      const hashes = gone.map((row) => row.hash);
      const sourceKeys = gone.map((row) => row.sourceKey);
      const stillUsed = hashes.length
        ? await tx
            .select({ hash: carPhotos.hash, sourceKey: carPhotos.sourceKey })
            .from(carPhotos)
            .where(or(inArray(carPhotos.hash, hashes), inArray(carPhotos.sourceKey, sourceKeys)))
        : [];
      const usedHashes = new Set(stillUsed.map((row) => row.hash));
      const usedSources = new Set(stillUsed.map((row) => row.sourceKey));
      const seen = new Set<string>();
      for (const row of gone) {
        const keep = { renditions: usedHashes.has(row.hash), original: usedSources.has(row.sourceKey) };
        const id = `${row.hash}:${row.sourceKey}`;
        if (seen.has(id) || (keep.renditions && keep.original)) continue;
        seen.add(id);
        files.push({ ...row, keep });
      }
    }

    await recordAudit(tx, {
      actorId: input.actorId,
      action: `moderation.${input.decision}`,
      subjectType: target === "photo" ? "car_photo" : "car",
      subjectId: photo?.id ?? car.id,
      details: { carId: car.id, note: input.note, reports: closed.map((row) => row.id) },
      ip: input.ip ?? null,
    });
    return { ok: true as const, car, target, files };
  });
  if (!result.ok) return result;

  for (const file of result.files) await services.deletePhotoFiles(file);
  const { car, target } = result;
  const name = `${car.year} ${car.make} ${car.model}`;
  const email = decisionEmail(services.brand, {
    to: car.ownerEmail,
    ownerName: car.ownerName,
    carName: name,
    target,
    decision: input.decision,
    note: input.note,
    carUrl: `${services.brand.siteUrl}/community/cars/${car.id}`,
  });
  const done: Record<Decision, string> = {
    hide: `The ${target} of the ${name} is hidden.`,
    restore: `The ${target} of the ${name} shows again.`,
    remove: target === "photo" ? `The photo of the ${name} is deleted.` : `The ${name} is deleted.`,
    dismiss: `The reports about the ${name} are dismissed.`,
  };
  return { ok: true, email, message: `${done[input.decision]} The owner has been emailed.` };
}

function decisionEmail(
  brand: Branding,
  input: {
    to: string;
    ownerName: string;
    carName: string;
    target: "car" | "photo";
    decision: Decision;
    note: string;
    carUrl: string;
  },
): OutboundEmail {
  const what = input.target === "photo" ? `a photo of your ${input.carName}` : `your ${input.carName}`;
  const lines: Record<Decision, { subject: string; line: string; action: boolean }> = {
    hide: {
      subject: `We have hidden ${what}`,
      line: `After a report, our moderators have hidden ${what} from the community pages. Only you and the club's staff can see it.`,
      action: true,
    },
    restore: {
      subject: `${what[0]!.toUpperCase()}${what.slice(1)} is visible again`,
      line: `Our moderators have looked again: ${what} shows on the community pages again.`,
      action: true,
    },
    remove: {
      subject: `We have removed ${what}`,
      line: `After a report, our moderators have removed ${what} from ${brand.siteName}.`,
      action: false,
    },
    dismiss: {
      subject: `A report about ${what} was dismissed`,
      line: `Someone reported ${what}. Our moderators looked at it and changed nothing.`,
      action: true,
    },
  };
  const chosen = lines[input.decision];
  return accountEmail(brand, input.to, chosen.subject, {
    greeting: input.ownerName ? `Hi ${input.ownerName},` : "Hi,",
    lines: [chosen.line, `The moderator's note: ${input.note}`],
    action: chosen.action ? { label: "See your car", url: input.carUrl } : undefined,
    footnote: "If you think this is a mistake, reply to this email.",
  });
}

/**
 * Staff feature a car on the home page, or stop featuring it. Only a public car that
 * is not hidden can be featured: the home page is for everyone.
 */
export async function setCarFeatured(
  db: Db,
  input: { actorId: string; carId: string; featured: boolean; ip?: string | null },
): Promise<{ ok: true; message: string } | { ok: false; message: string }> {
  return db.transaction(async (tx) => {
    const [car] = await tx
      .select({ id: cars.id, visibility: cars.visibility, hiddenAt: cars.hiddenAt, make: cars.make, model: cars.model })
      .from(cars)
      .where(eq(cars.id, input.carId))
      .for("update");
    if (!car) return { ok: false as const, message: "This car no longer exists." };
    if (input.featured && (car.visibility !== "public" || car.hiddenAt)) {
      return { ok: false as const, message: "Only a public car that is not hidden can be featured on the home page." };
    }
    await tx
      .update(cars)
      .set({ featuredAt: input.featured ? new Date() : null })
      .where(eq(cars.id, car.id));
    await recordAudit(tx, {
      actorId: input.actorId,
      action: input.featured ? "car.feature" : "car.unfeature",
      subjectType: "car",
      subjectId: car.id,
      ip: input.ip ?? null,
    });
    const name = `${car.make} ${car.model}`;
    return {
      ok: true as const,
      message: input.featured ? `The ${name} is on the home page.` : `The ${name} is no longer on the home page.`,
    };
  });
}
