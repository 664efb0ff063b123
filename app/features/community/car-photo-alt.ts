export type PicturePhoto = { hash: string; width: number; height: number; color: string; alt: string };
export type CarName = { year: number; make: string; model: string };

/** A photo's alt text: the owner's words, else "2004 Honda S2000, photo 2". */
export function photoAlt(car: CarName, photo: Pick<PicturePhoto, "alt">, index: number) {
  return photo.alt.trim() || `${car.year} ${car.make} ${car.model}, photo ${index + 1}`;
}
