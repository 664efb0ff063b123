import type { LogoSources } from "./logo-urls";

/** A logo as the banner shows it: the whole picture in a 2:1 box, never cropped. */
export function PartnerLogo({
  sources,
  alt,
  className = "",
}: {
  sources: LogoSources;
  alt: string;
  className?: string;
}) {
  return (
    <picture>
      <source type="image/avif" srcSet={sources.avif} sizes="160px" />
      <source type="image/webp" srcSet={sources.webp} sizes="160px" />
      <img
        src={sources.src}
        alt={alt}
        width={sources.width}
        height={sources.height}
        loading="lazy"
        decoding="async"
        className={`h-20 w-40 object-contain ${className}`}
      />
    </picture>
  );
}
