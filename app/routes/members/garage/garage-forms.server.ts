import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import { TooManyAttempts } from "~/features/accounts/attempts.server";
import { chooseHistory } from "~/features/car-history/car-history.server";
import { HistoryChoiceSchema } from "~/features/car-history/schemas";
import { carPhotoMedia } from "~/features/garage/car-photo-media.server";
import {
  createCar,
  type GarageCaps,
  garageCapsOf,
  getMyCar,
  setCarVisibility,
  updateCar,
} from "~/features/garage/cars.server";
import {
  addCarPhoto,
  blurCarPhoto,
  deleteCar,
  describeCarPhoto,
  moveCarPhoto,
  orderCarPhotos,
  removeCarPhoto,
  setCarCover,
} from "~/features/garage/photos.server";
import {
  BlurFormSchema,
  carSchema,
  GarageListIntentSchema,
  PhotoIntentSchema,
  parseBlurRegions,
  regionFromPercent,
} from "~/features/garage/schemas";
import { limitCarPhotoBlurs, limitCarPhotoUploads } from "~/features/garage/upload-limits.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import type { Db } from "~/server/db/client.server";
import { redirectWithFlash } from "~/server/flash.server";
import type { Storage } from "~/server/storage/storage.server";
import { notFound } from "~/ui/not-found";
import { intentOf } from "~/web/form-data.server";
import { invalidReply, refusedReply } from "~/web/form-replies.server";

// The garage's forms: read the form, check it with its schema, call the garage rule, and answer
// a redirect with a flash message or the form's errors (400).

/** `caps`: how much a member may keep (GARAGE_MAX_* settings, read by `garageCapsOf`). */
export type GarageCall = { db: Db; storage: Storage; ownerId: string; ip: string; caps: GarageCaps };

/** What the garage's forms need from a request: the database, storage, the member, where they are and their caps. */
export function garageCall(context: Readonly<RouterContextProvider>, ownerId: string): GarageCall {
  const { db, storage, env } = context.get(runtimeContext);
  return { db, storage, ownerId, ip: context.get(requestContext).ip, caps: garageCapsOf(env) };
}

export async function createCarAction(call: GarageCall, formData: FormData) {
  const submission = parseWithZod(formData, { schema: carSchema() });
  if (submission.status !== "success") return invalidReply("save", submission);
  const created = await createCar(call.db, { ownerId: call.ownerId, car: submission.value, caps: call.caps });
  if (!created.ok) return refusedReply("save", submission, created);
  return redirectWithFlash(`/members/garage/${created.id}#photos`, {
    kind: "success",
    message: "Car saved. Now add its photos.",
  });
}

/** The forms of /members/garage: delete a car, change who sees it. */
export async function garageListAction(call: GarageCall, formData: FormData) {
  const submission = parseWithZod(formData, { schema: GarageListIntentSchema });
  if (submission.status !== "success") return invalidReply(intentOf(formData), submission);
  const value = submission.value;
  if (value.intent === "delete") {
    const outcome = await deleteCar({ ...call, media: carPhotoMedia }, { ownerId: call.ownerId, carId: value.carId });
    if (!outcome.ok) notFound();
    return redirectWithFlash("/members/garage", { kind: "success", message: "Car deleted, with its photos." });
  }
  const outcome = await setCarVisibility(call.db, { ownerId: call.ownerId, ...value });
  if (!outcome.ok) notFound();
  return redirectWithFlash("/members/garage", { kind: "success", message: "Visibility changed." });
}

/** The forms of a car's edit page: its details, and each photo's order, cover, description and blur. */
export async function editCarAction(call: GarageCall & { carId: string }, formData: FormData, here: string) {
  const intent = intentOf(formData);
  const { db, ownerId, carId } = call;
  const done = (message: string, hash = "") => redirectWithFlash(`${here}${hash}`, { kind: "success", message });
  if (intent === "save") {
    const submission = parseWithZod(formData, { schema: carSchema() });
    if (submission.status !== "success") return invalidReply(intent, submission);
    const outcome = await updateCar(db, { ownerId, carId, car: submission.value });
    if (!outcome.ok) notFound();
    return done("Changes saved.");
  }
  if (intent.startsWith("blur")) return blurAction(call, formData, here);
  if (intent === "history") return historyAction(call, formData, here);
  const submission = parseWithZod(formData, { schema: PhotoIntentSchema });
  if (submission.status !== "success") return invalidReply(intent, submission);
  const value = submission.value;
  const photo = "photoId" in value ? { photoId: value.photoId } : {};
  switch (value.intent) {
    case "cover":
      if (!(await setCarCover(db, { ownerId, carId, photoId: value.photoId })).ok) notFound();
      return done("Cover chosen.", "#photos");
    case "move":
      if (!(await moveCarPhoto(db, { ownerId, carId, ...value })).ok) notFound();
      return done(value.direction === "up" ? "Photo moved earlier." : "Photo moved later.", "#photos");
    case "order":
      if (!(await orderCarPhotos(db, { ownerId, carId, order: value.order })).ok) notFound();
      return done("Photos reordered.", "#photos");
    case "alt":
      if (!(await describeCarPhoto(db, { ownerId, carId, photoId: value.photoId, alt: value.alt })).ok) notFound();
      return done("Description saved.", "#photos");
    case "remove": {
      const outcome = await removeCarPhoto(
        { ...call, media: carPhotoMedia },
        { ownerId, carId, photoId: value.photoId },
      );
      if (!outcome.ok) notFound();
      return done("Photo removed.", "#photos");
    }
  }
  return refusedReply(intent, submission, { message: "Choose what to do with the photo." }, photo);
}

/** The owner hides or shows one show of the car's history, or its score. */
async function historyAction(call: GarageCall & { carId: string }, formData: FormData, here: string) {
  const submission = parseWithZod(formData, { schema: HistoryChoiceSchema });
  if (submission.status !== "success") return invalidReply("history", submission);
  const { applicationId, what, shown } = submission.value;
  if (!(await chooseHistory(call.db, { ownerId: call.ownerId, carId: call.carId, applicationId, what, shown }))) {
    notFound();
  }
  const message =
    what === "show"
      ? shown
        ? "The show is back in the car's history."
        : "The show is hidden from everyone but you."
      : shown
        ? "Your score is shown with the show."
        : "Your score is hidden.";
  return redirectWithFlash(`${here}#show-history`, { kind: "success", message });
}

/**
 * Blur areas are changed one at a time, so a keyboard or a page without JavaScript can mark
 * them: add an area by its position in per cent (or the plate preset), remove one, or clear.
 * Each change applies the whole set again to every stored size.
 */
async function blurAction(call: GarageCall & { carId: string }, formData: FormData, here: string) {
  const submission = parseWithZod(formData, { schema: BlurFormSchema });
  const intent = intentOf(formData);
  if (submission.status !== "success") {
    return invalidReply(intent, submission, { photoId: String(formData.get("photoId") ?? "") });
  }
  const { photoId } = submission.value;
  const car = await getMyCar(call.db, call.ownerId, call.carId);
  const photo = car?.photos.find((candidate) => candidate.id === photoId);
  if (!photo) notFound();
  let regions = photo.blur;
  const value = submission.value;
  if (value.intent === "blur-add") regions = [...regions, regionFromPercent(value)];
  if (value.intent === "blur-remove") regions = regions.filter((_, index) => index !== value.index);
  if (value.intent === "blur-clear") regions = [];
  if (value.intent === "blur-set") {
    const parsed = parseBlurRegions(value.regions);
    if (!parsed.ok) return refusedReply(intent, submission, { message: parsed.message }, { photoId });
    regions = parsed.regions;
  }
  const checked = parseBlurRegions(JSON.stringify(regions));
  if (!checked.ok) return refusedReply(intent, submission, { message: checked.message }, { photoId });
  try {
    await limitCarPhotoBlurs(call.db, { userId: call.ownerId, ip: call.ip });
  } catch (error) {
    if (!(error instanceof TooManyAttempts)) throw error;
    return tryLaterReply(intent, submission, { message: error.message, status: 429 }, photoId, error.retryAfterSeconds);
  }
  const outcome = await blurCarPhoto(
    { ...call, media: carPhotoMedia },
    { ownerId: call.ownerId, carId: call.carId, photoId, regions: checked.regions },
  );
  if (!outcome.ok) {
    if ("notFound" in outcome) notFound();
    if ("busy" in outcome) return tryLaterReply(intent, submission, { message: outcome.message, status: 503 }, photoId);
    return refusedReply(intent, submission, { message: outcome.message }, { photoId });
  }
  const message = regions.length === 0 ? "Blur removed from the photo." : "Blur applied to every size of the photo.";
  return redirectWithFlash(`${here}#photo-${photoId}`, { kind: "success", message });
}

/** A blur the site could not make now (too many, or the image workers full): the form again, with when to retry. */
function tryLaterReply<T>(
  intent: string,
  submission: Submission<T>,
  refusal: { message: string; status: 429 | 503 },
  photoId: string,
  retryAfterSeconds = 30,
) {
  return data(
    { intent, result: submission.reply({ formErrors: [refusal.message] }), photoId },
    { status: refusal.status, headers: { "Retry-After": String(retryAfterSeconds) } },
  );
}

export type UploadOutcome =
  | { ok: true; photoId: string; name: string }
  | { ok: false; name: string; message: string; status: number };

/**
 * Stores each uploaded file as a photo of the car, in the order sent. A file refused for its type,
 * size or content, or past the car's limit, gets its own message; the rest are kept.
 */
export async function uploadCarPhotos(
  call: GarageCall & { carId: string },
  formData: FormData,
): Promise<UploadOutcome[]> {
  const car = await getMyCar(call.db, call.ownerId, call.carId);
  if (!car) notFound();
  const files = formData.getAll("photos").filter((file): file is File => file instanceof File && file.size > 0);
  if (files.length === 0) return [{ ok: false, name: "", message: "Choose at least one photo.", status: 400 }];
  const outcomes: UploadOutcome[] = [];
  const media = carPhotoMedia;
  for (const file of files) {
    const name = file.name.slice(0, 120);
    if (file.size > media.maxBytes) {
      outcomes.push({ ok: false, name, status: 413, message: `${name} is over 15 MB. Choose a smaller photo.` });
      continue;
    }
    try {
      await limitCarPhotoUploads(call.db, { userId: call.ownerId, ip: call.ip });
    } catch (error) {
      if (!(error instanceof TooManyAttempts)) throw error;
      outcomes.push({ ok: false, name, status: 429, message: error.message });
      continue;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const outcome = await addCarPhoto(
      { ...call, media },
      { ownerId: call.ownerId, carId: call.carId, bytes, caps: call.caps },
    );
    if (outcome.ok) outcomes.push({ ok: true, name, photoId: outcome.photoId });
    else if ("notFound" in outcome) notFound();
    // Busy: the image workers are full; the uploader sends the same file again after a pause.
    else
      outcomes.push({ ok: false, name, status: "busy" in outcome ? 503 : 400, message: `${name}: ${outcome.message}` });
  }
  return outcomes;
}
