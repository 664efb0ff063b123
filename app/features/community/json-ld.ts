import { carPhotoShareUrl } from "~/features/media/car-photo-urls";

/**
 * schema.org data for a car's page: a Car with its photos, make, model, year and owner. Only for
 * public cars that are not hidden; the plate is never in it.
 */
export function carJsonLd(
  car: {
    make: string;
    model: string;
    year: number;
    variant: string;
    colour: string;
    engine: string;
    powerBhp: number | null;
    ownerName: string;
    ownerHandle: string | null;
    photos: { hash: string; hidden: boolean }[];
  },
  site: { pageUrl: string; siteUrl: string },
) {
  return {
    "@context": "https://schema.org",
    "@type": "Car",
    name: `${car.year} ${car.make} ${car.model}${car.variant ? ` ${car.variant}` : ""}`,
    url: site.pageUrl,
    brand: { "@type": "Brand", name: car.make },
    model: car.model,
    vehicleModelDate: String(car.year),
    ...(car.colour ? { color: car.colour } : {}),
    ...(car.engine || car.powerBhp
      ? {
          vehicleEngine: {
            "@type": "EngineSpecification",
            ...(car.engine ? { name: car.engine } : {}),
            ...(car.powerBhp
              ? { enginePower: { "@type": "QuantitativeValue", value: car.powerBhp, unitText: "bhp" } }
              : {}),
          },
        }
      : {}),
    image: car.photos.filter((photo) => !photo.hidden).map((photo) => carPhotoShareUrl(photo.hash, site.siteUrl)),
    ...(car.ownerHandle
      ? {
          subjectOf: {
            "@type": "ProfilePage",
            url: `${site.siteUrl}/community/${car.ownerHandle}`,
            mainEntity: { "@type": "Person", name: car.ownerName, alternateName: `@${car.ownerHandle}` },
          },
        }
      : {}),
  };
}
