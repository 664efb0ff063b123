/** How long the shop editor's fields may be, and the ranges of its numbers (client safe). */
export const LIMITS = {
  title: 120,
  slug: 80,
  summary: 300,
  description: 20_000,
  sizeGuide: 5_000,
  optionNames: 200,
  optionName: 30,
  options: 3,
  optionValue: 40,
  sku: 40,
  reason: 200,
  alt: 200,
  /** Photos of one product. */
  photos: 8,
  countries: 200,
  stock: 100_000,
  threshold: 10_000,
  maxPerOrder: 1_000,
} as const;
