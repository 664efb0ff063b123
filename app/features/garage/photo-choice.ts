import { countOf } from "~/ui/plural";

/** What the uploader may still take for a car. */
export type PhotoRoom = {
  /** Photos the car can still take, less those already waiting to be sent. */
  room: number;
  maxPhotos: number;
  maxBytes: number;
};

export type PhotoChoice = { accepted: File[]; refused: string[] };

/**
 * Splits the files someone chose into those to send, in their order, and the reasons the others
 * are not sent. These checks are for quick feedback: the server checks every file again, by
 * content, so a file the browser gives no type passes here.
 */
export function sortChosenPhotos(files: Iterable<File>, { room, maxPhotos, maxBytes }: PhotoRoom): PhotoChoice {
  const accepted: File[] = [];
  const refused: string[] = [];
  for (const file of files) {
    if (!file.type.startsWith("image/") && file.type !== "") {
      refused.push(`${file.name} is not a photo.`);
    } else if (file.size > maxBytes) {
      refused.push(`${file.name} is over ${Math.round(maxBytes / 1024 / 1024)} MB.`);
    } else if (accepted.length >= room) {
      refused.push(`${file.name} was not added: a car can have at most ${maxPhotos} photos.`);
    } else {
      accepted.push(file);
    }
  }
  return { accepted, refused };
}

/** What the uploader says about a choice: how many photos it queued, and why any were left out. */
export function choiceNotice({ accepted, refused }: PhotoChoice) {
  const queued = accepted.length ? `${countOf(accepted.length, "photo", "photos")} queued.` : "";
  return [queued, ...refused].filter(Boolean).join(" ");
}
