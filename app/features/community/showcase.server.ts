import { and, asc, count, desc, eq, gte, ilike, inArray, isNotNull, lt, or, type SQL, sql } from "drizzle-orm";
import { awardsOfCars } from "~/features/car-history/car-history.server";
import { carDetailColumns } from "~/features/garage/car-columns";
import type { Db } from "~/server/db/client.server";
import { containing } from "~/server/db/like";
import { isUuid } from "~/server/db/uuid";
import { type CarVisibility, carLikes, carPhotos, cars, users } from "../../../db/schema";
import {
  plateFor,
  profileOpenTo,
  sharesPublicCar,
  shownDetails,
  type Viewer,
  visibleCars,
  visiblePhotos,
} from "./visibility.server";

export const CARS_PER_PAGE = 12;
const MAX_SEARCH_LENGTH = 80;
const COMMUNITY_SORTS = ["newest", "liked"] as const;
type CommunitySort = (typeof COMMUNITY_SORTS)[number];

type CarPhoto = { id: string; hash: string; width: number; height: number; color: string; alt: string };

export type CarTileData = {
  id: string;
  make: string;
  model: string;
  year: number;
  variant: string;
  likeCount: number;
  visibility: CarVisibility;
  ownerHandle: string | null;
  ownerName: string;
  cover: CarPhoto | null;
  likedByMe: boolean;
  hidden: boolean;
  /** Awards won at shows whose results are published ("Best in Show"), oldest first. */
  awards: string[];
};

export type CommunityQuery = { make?: string; era?: number; q?: string; sort?: CommunitySort; page?: number };

export function normaliseSearch(q: string | null | undefined) {
  return (q ?? "").replace(/\s+/g, " ").trim().slice(0, MAX_SEARCH_LENGTH).trim();
}

/** A decade like 1990 from the address (`era=1990`), or undefined for anything else. */
export function eraFrom(value: string | null | undefined): number | undefined {
  if (!value || !/^\d{4}$/.test(value)) return undefined;
  const year = Number(value);
  return year % 10 === 0 && year >= 1880 && year <= 2100 ? year : undefined;
}

const tileColumns = {
  id: cars.id,
  make: cars.make,
  model: cars.model,
  year: cars.year,
  variant: cars.variant,
  likeCount: cars.likeCount,
  visibility: cars.visibility,
  ownerHandle: users.handle,
  ownerName: users.name,
  coverPhotoId: cars.coverPhotoId,
  hiddenAt: cars.hiddenAt,
};

/** A tile as the query reads it, before its cover photo and the viewer's like are looked up. */
type TileRow = Omit<CarTileData, "cover" | "likedByMe" | "hidden" | "awards"> & {
  coverPhotoId: string | null;
  hiddenAt: Date | null;
};

/**
 * Cover photos, the viewer's likes and award badges for a page of cars, in three queries whatever
 * the page size: the chosen cover when the viewer may see it, else the first photo they may see.
 */
async function withCovers(db: Db, viewer: Viewer, rows: TileRow[]): Promise<CarTileData[]> {
  const ids = rows.map((row) => row.id);
  if (ids.length === 0) return [];
  const [photos, likes, awards] = await Promise.all([
    db
      .select({
        id: carPhotos.id,
        carId: carPhotos.carId,
        hash: carPhotos.hash,
        width: carPhotos.width,
        height: carPhotos.height,
        color: carPhotos.color,
        alt: carPhotos.alt,
      })
      .from(carPhotos)
      .innerJoin(cars, eq(cars.id, carPhotos.carId))
      .where(and(inArray(carPhotos.carId, ids), visiblePhotos(viewer)))
      .orderBy(asc(carPhotos.carId), asc(carPhotos.position)),
    viewer
      ? db
          .select({ carId: carLikes.carId })
          .from(carLikes)
          .where(and(eq(carLikes.userId, viewer.id), inArray(carLikes.carId, ids)))
      : Promise.resolve([]),
    awardsOfCars(db, ids),
  ]);
  const liked = new Set(likes.map((like) => like.carId));
  return rows.map((row) => {
    const own = photos.filter((photo) => photo.carId === row.id);
    const chosen = own.find((photo) => photo.id === row.coverPhotoId) ?? own[0];
    return {
      id: row.id,
      make: row.make,
      model: row.model,
      year: row.year,
      variant: row.variant,
      likeCount: row.likeCount,
      visibility: row.visibility,
      ownerHandle: row.ownerHandle,
      ownerName: row.ownerName,
      cover: chosen
        ? {
            id: chosen.id,
            hash: chosen.hash,
            width: chosen.width,
            height: chosen.height,
            color: chosen.color,
            alt: chosen.alt,
          }
        : null,
      likedByMe: liked.has(row.id),
      hidden: row.hiddenAt !== null,
      awards: awards.get(row.id) ?? [],
    };
  });
}

/** The community grid: visible cars filtered by make, decade and words, newest or most liked first. */
export async function listCommunityCars(db: Db, viewer: Viewer, query: CommunityQuery) {
  const conditions: SQL[] = [visibleCars(viewer)];
  const make = normaliseSearch(query.make);
  if (make) conditions.push(sql`lower(${cars.make}) = ${make.toLowerCase()}`);
  if (query.era !== undefined) conditions.push(and(gte(cars.year, query.era), lt(cars.year, query.era + 10))!);
  const q = normaliseSearch(query.q);
  if (q) {
    // Every word must match the make, model, variant or the owner's handle.
    // "@name" finds a handle: handles are stored without the "@".
    const words = q
      .split(" ")
      .map((word) => word.replace(/^@+/, ""))
      .filter(Boolean);
    for (const word of words.slice(0, 6)) {
      const pattern = containing(word);
      conditions.push(
        or(
          ilike(cars.make, pattern),
          ilike(cars.model, pattern),
          ilike(cars.variant, pattern),
          ilike(users.handle, pattern),
        )!,
      );
    }
  }
  const where = and(...conditions);
  const [{ total }] = (await db
    .select({ total: count() })
    .from(cars)
    .innerJoin(users, eq(users.id, cars.ownerId))
    .where(where)) as [{ total: number }];
  const pageCount = Math.max(1, Math.ceil(total / CARS_PER_PAGE));
  const requested = Number.isFinite(query.page) && (query.page ?? 1) >= 1 ? Math.floor(query.page ?? 1) : 1;
  const page = Math.min(requested, pageCount);
  const order =
    query.sort === "liked"
      ? [desc(cars.likeCount), desc(cars.createdAt), desc(cars.id)]
      : [desc(cars.createdAt), desc(cars.id)];
  const rows = (await db
    .select(tileColumns)
    .from(cars)
    .innerJoin(users, eq(users.id, cars.ownerId))
    .where(where)
    .orderBy(...order)
    .limit(CARS_PER_PAGE)
    .offset((page - 1) * CARS_PER_PAGE)) as TileRow[];
  return { cars: await withCovers(db, viewer, rows), total, page, pageCount };
}

/** The makes among the cars `viewer` may see, for the filter, most common first. */
export async function communityMakes(db: Db, viewer: Viewer) {
  const rows = await db
    .select({ make: sql<string>`min(${cars.make})`, count: count() })
    .from(cars)
    .where(visibleCars(viewer))
    .groupBy(sql`lower(${cars.make})`)
    .orderBy(desc(count()), sql`lower(${cars.make})`)
    .limit(60);
  return rows;
}

/**
 * A member's profile and the cars of theirs that `viewer` may see, or null for an unknown handle
 * and for one they may not open (both a 404): only the member sees it before they share a public
 * car (`profileOpenTo`), and the town and photo show only where the member chose (`shownDetails`).
 */
export async function getCommunityProfile(db: Db, viewer: Viewer, handle: string) {
  if (!/^[A-Za-z0-9_.-]{1,40}$/.test(handle)) return null;
  const [row] = await db
    .select({
      id: users.id,
      name: users.name,
      handle: users.handle,
      town: users.town,
      townPublic: users.townPublic,
      image: users.image,
      avatarPublic: users.avatarPublic,
      sharesPublicCar: sharesPublicCar(users.id),
    })
    .from(users)
    .where(and(sql`lower(${users.handle}) = ${handle.toLowerCase()}`, isNotNull(users.onboardedAt)));
  if (!row || !profileOpenTo(viewer, row)) return null;
  const member = { id: row.id, name: row.name, handle: row.handle, ...shownDetails(row) };
  const isMe = viewer?.id === member.id;
  const rows = (await db
    .select(tileColumns)
    .from(cars)
    .innerJoin(users, eq(users.id, cars.ownerId))
    .where(and(eq(cars.ownerId, member.id), visibleCars(viewer)))
    .orderBy(desc(cars.createdAt), desc(cars.id))
    .limit(100)) as TileRow[];
  return {
    member,
    cars: await withCovers(db, viewer, rows),
    isMe,
    /** The member's own look at a page nobody else can open yet. */
    preview: !row.sharesPublicCar,
    /** For the member alone: whether their town and photo are hidden from others. */
    hiddenFromOthers: isMe
      ? { town: Boolean(row.town && !row.townPublic), photo: Boolean(row.image && !row.avatarPublic) }
      : null,
  };
}

export const isCarId = (value: string | undefined): value is string => isUuid(value);

/** One car as `viewer` may see it, or null when it does not exist or they may not see it. */
export async function getCommunityCar(db: Db, viewer: Viewer, carId: string) {
  if (!isCarId(carId)) return null;
  const [car] = await db
    .select({
      ...carDetailColumns,
      ownerId: cars.ownerId,
      coverPhotoId: cars.coverPhotoId,
      featuredAt: cars.featuredAt,
      createdAt: cars.createdAt,
      updatedAt: cars.updatedAt,
      ownerName: users.name,
      ownerHandle: users.handle,
      ownerSharesPublicCar: sharesPublicCar(cars.ownerId),
    })
    .from(cars)
    .innerJoin(users, eq(users.id, cars.ownerId))
    .where(and(eq(cars.id, carId.toLowerCase()), visibleCars(viewer)));
  if (!car) return null;
  const [photos, liked] = await Promise.all([
    db
      .select({
        id: carPhotos.id,
        hash: carPhotos.hash,
        width: carPhotos.width,
        height: carPhotos.height,
        color: carPhotos.color,
        alt: carPhotos.alt,
        hiddenAt: carPhotos.hiddenAt,
      })
      .from(carPhotos)
      .innerJoin(cars, eq(cars.id, carPhotos.carId))
      .where(and(eq(carPhotos.carId, car.id), visiblePhotos(viewer)))
      .orderBy(asc(carPhotos.position), asc(carPhotos.createdAt)),
    viewer
      ? db
          .select({ carId: carLikes.carId })
          .from(carLikes)
          .where(and(eq(carLikes.carId, car.id), eq(carLikes.userId, viewer.id)))
      : Promise.resolve([]),
  ]);
  // The cover leads the gallery.
  const ordered = [
    ...photos.filter((photo) => photo.id === car.coverPhotoId),
    ...photos.filter((photo) => photo.id !== car.coverPhotoId),
  ];
  const { plate: _plate, platePublic: _platePublic, ownerSharesPublicCar, ...shown } = car;
  return {
    ...shown,
    /** Whether the owner's profile opens for this viewer, so the page links to it. */
    ownerProfileOpen: profileOpenTo(viewer, { id: car.ownerId, sharesPublicCar: ownerSharesPublicCar }),
    plate: plateFor(car, viewer),
    hidden: car.hiddenAt !== null,
    photos: ordered.map(({ hiddenAt, ...photo }) => ({ ...photo, hidden: hiddenAt !== null })),
    likedByMe: liked.length > 0,
    isMine: viewer?.id === car.ownerId,
  };
}

export type CommunityCar = NonNullable<Awaited<ReturnType<typeof getCommunityCar>>>;

/** The cars staff featured for the home page, as a visitor sees them. */
export async function featuredCars(db: Db, limit = 6) {
  const rows = (await db
    .select(tileColumns)
    .from(cars)
    .innerJoin(users, eq(users.id, cars.ownerId))
    .where(and(visibleCars(null), isNotNull(cars.featuredAt)))
    .orderBy(desc(cars.featuredAt), desc(cars.id))
    .limit(limit)) as TileRow[];
  return withCovers(db, null, rows);
}

/** Public cars and the profiles that show at least one, for the sitemap. */
export async function sitemapCommunity(db: Db) {
  const rows = await db
    .select({ id: cars.id, updatedAt: cars.updatedAt, handle: users.handle })
    .from(cars)
    .innerJoin(users, eq(users.id, cars.ownerId))
    .where(and(visibleCars(null), isNotNull(users.onboardedAt)))
    .orderBy(desc(cars.updatedAt))
    .limit(40_000);
  const handles = [...new Set(rows.map((row) => row.handle).filter((handle): handle is string => Boolean(handle)))];
  return { cars: rows.map(({ id, updatedAt }) => ({ id, updatedAt })), handles };
}
