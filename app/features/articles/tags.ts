/** "track-days" → "Track days": how a tag reads on a card or a chip. */
export function tagLabel(tag: string) {
  const words = tag.replace(/-/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const TAG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_TAG_LENGTH = 40;
export const MAX_TAGS = 8;

/** "Track Days", " track_days " → "track-days"; empty when nothing usable is left. */
function normaliseTag(raw: string) {
  return raw
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_TAG_LENGTH)
    .replace(/-+$/g, "");
}

/** "News, Track Days, news" → ["news", "track-days"]: normalised, without repeats. */
export function parseTags(raw: string) {
  return [...new Set(raw.split(",").map(normaliseTag).filter(Boolean))];
}

export function isTag(value: string | null | undefined): value is string {
  return value != null && value.length <= MAX_TAG_LENGTH && TAG.test(value);
}
