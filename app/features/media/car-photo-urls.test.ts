import { describe, expect, it } from "vitest";
import { carPhotoShareUrl, carPhotoSources } from "./car-photo-urls";

const hash = "0123456789abcdef0123456789abcdef";

describe("carPhotoSources", () => {
  it("offers each layout the widths its slot needs, in AVIF and WebP", () => {
    expect(carPhotoSources(hash, "thumb")).toEqual({
      avifSrcSet: `/media/cars/${hash}-160.avif 160w, /media/cars/${hash}-320.avif 320w`,
      webpSrcSet: `/media/cars/${hash}-160.webp 160w, /media/cars/${hash}-320.webp 320w`,
      src: `/media/cars/${hash}-160.webp`,
      sizes: "160px",
    });
    const tile = carPhotoSources(hash, "tile");
    expect(tile.webpSrcSet.split(", ").map((entry) => entry.split(" ")[1])).toEqual(["320w", "640w", "960w"]);
    expect(tile.sizes).toBe("(min-width: 1280px) 400px, (min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw");
    const gallery = carPhotoSources(hash, "gallery");
    expect(gallery.avifSrcSet.split(", ").map((entry) => entry.split(" ")[1])).toEqual(["640w", "960w", "1600w"]);
    expect(gallery.sizes).toBe("(min-width: 1200px) 1200px, 100vw");
  });

  it("shares the 1600 px WebP at the site's own address", () => {
    expect(carPhotoShareUrl(hash, "https://club.example")).toBe(`https://club.example/media/cars/${hash}-1600.webp`);
  });
});
