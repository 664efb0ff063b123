import { useMediaBase } from "~/ui/site";
import { storedAvatarHash } from "./avatar-urls";

const SIZES = { sm: "size-9 text-sm", md: "size-14 text-lg", lg: "size-24 text-3xl" } as const;
const PIXELS = { sm: 36, md: 56, lg: 96 } as const;

function initials(name: string) {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase());
  return letters.join("") || "?";
}

/**
 * A member's round photo, or their initials on the accent colour. Only photos stored by this
 * site are shown (a provider's picture URL would be blocked by the content policy anyway).
 */
export function Avatar({
  image,
  name,
  size = "md",
  alt,
}: {
  image: string | null | undefined;
  name: string;
  size?: keyof typeof SIZES;
  /** Empty when the name is written next to the photo. */
  alt?: string;
}) {
  // Addressed from the media base, so a photo saved before the site moved its media to a
  // bucket loads from the bucket too.
  const mediaBase = useMediaBase();
  const hash = storedAvatarHash(image);
  const local = hash ? `${mediaBase}avatars/${hash}.webp` : null;
  const avif = hash ? `${mediaBase}avatars/${hash}.avif` : null;
  if (!local) {
    const circle = `${SIZES[size]} wide inline-grid shrink-0 place-items-center rounded-full bg-accent font-extrabold text-on-accent`;
    if (alt === "") {
      return (
        <span aria-hidden="true" className={circle}>
          {initials(name)}
        </span>
      );
    }
    return (
      <span role="img" aria-label={alt ?? name} className={circle}>
        {initials(name)}
      </span>
    );
  }
  return (
    <picture className="shrink-0">
      {avif ? <source type="image/avif" srcSet={avif} /> : null}
      <img
        src={local}
        alt={alt ?? name}
        width={PIXELS[size]}
        height={PIXELS[size]}
        className={`${SIZES[size]} rounded-full bg-surface-sunken object-cover ring-2 ring-line`}
      />
    </picture>
  );
}
