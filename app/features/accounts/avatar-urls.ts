// Stored avatars are addressed by content: ".../avatars/<sha256>.webp" with an ".avif" twin.
// Shared by the server (to find the files to delete) and the pages (to offer the AVIF).

const STORED_AVATAR = /(?:^|\/)avatars\/([0-9a-f]{64})\.webp$/;

/** The content hash of an avatar this site stored, from its address (any other address: null). */
export function storedAvatarHash(image: string | null | undefined) {
  return image ? (STORED_AVATAR.exec(image)?.[1] ?? null) : null;
}
