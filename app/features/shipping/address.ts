import type { ShippingAddress } from "../../../db/schema";

/**
 * The delivery address form and its rules per country (docs/shop.md "Shipping"). The shop only
 * offers the countries staff chose in the shop settings that also have a postcode rule here; a
 * country without one is never offered, so no address is accepted unchecked.
 */

type PostcodeRule = {
  name: string;
  /** What the postcode field is called there. */
  label: string;
  /** Upper-cased, spaces squeezed: tested against `pattern`, then stored as `format` makes it. */
  pattern: RegExp;
  example: string;
  format?: (value: string) => string;
  /** Whether the region field must be filled (US states). */
  regionRequired?: boolean;
  regionLabel: string;
};

const spaceBeforeLast = (size: number) => (value: string) => {
  const compact = value.replace(/\s/g, "");
  return `${compact.slice(0, -size)} ${compact.slice(-size)}`;
};

const POSTCODE_RULES: Record<string, PostcodeRule> = {
  // Royal Mail's outward + inward code, including BFPO-free GIR 0AA; the space is optional when typed.
  GB: {
    name: "United Kingdom",
    label: "Postcode",
    pattern: /^(GIR ?0AA|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2})$/,
    example: "SW1A 1AA",
    format: spaceBeforeLast(3),
    regionLabel: "County (optional)",
  },
  // Eircode: a routing key (letter, two digits, or D6W) and a four-character unique identifier.
  IE: {
    name: "Ireland",
    label: "Eircode",
    pattern: /^([AC-FHKNPRTV-Y]\d{2}|D6W) ?[0-9AC-FHKNPRTV-Y]{4}$/,
    example: "D02 AF30",
    format: spaceBeforeLast(4),
    regionLabel: "County (optional)",
  },
  US: {
    name: "United States",
    label: "ZIP code",
    pattern: /^\d{5}(-\d{4})?$/,
    example: "94103",
    regionRequired: true,
    regionLabel: "State",
  },
  DE: {
    name: "Germany",
    label: "Postleitzahl",
    pattern: /^\d{5}$/,
    example: "10115",
    regionLabel: "Region (optional)",
  },
  FR: { name: "France", label: "Code postal", pattern: /^\d{5}$/, example: "75001", regionLabel: "Region (optional)" },
  NL: {
    name: "Netherlands",
    label: "Postcode",
    pattern: /^[1-9]\d{3} ?[A-Z]{2}$/,
    example: "1012 AB",
    format: spaceBeforeLast(2),
    regionLabel: "Province (optional)",
  },
  BE: {
    name: "Belgium",
    label: "Postcode",
    pattern: /^[1-9]\d{3}$/,
    example: "1000",
    regionLabel: "Province (optional)",
  },
  ES: {
    name: "Spain",
    label: "Código postal",
    pattern: /^\d{5}$/,
    example: "28001",
    regionLabel: "Province (optional)",
  },
  IT: { name: "Italy", label: "CAP", pattern: /^\d{5}$/, example: "00118", regionLabel: "Province (optional)" },
};

export type DeliveryCountry = {
  code: string;
  name: string;
  postcodeLabel: string;
  regionLabel: string;
  example: string;
};

/** The countries the delivery form offers: the shop's list, in its order, that have a rule here. */
export function deliveryCountries(shopCountries: readonly string[]): DeliveryCountry[] {
  return shopCountries.flatMap((code) => {
    const rule = POSTCODE_RULES[code.toUpperCase()];
    return rule
      ? [
          {
            code: code.toUpperCase(),
            name: rule.name,
            postcodeLabel: rule.label,
            regionLabel: rule.regionLabel,
            example: rule.example,
          },
        ]
      : [];
  });
}

const ADDRESS_FIELDS = ["name", "line1", "line2", "town", "region", "postcode", "country"] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];
export type AddressValues = Record<AddressField, string>;
export type AddressErrors = Partial<Record<AddressField, string>>;

const LIMITS: Record<AddressField, number> = {
  name: 100,
  line1: 120,
  line2: 120,
  town: 80,
  region: 80,
  postcode: 12,
  country: 2,
};

/** The address fields of a submitted form, trimmed, as typed (for showing them again). */
export function addressValuesOf(formData: FormData): AddressValues {
  const read = (field: AddressField) => {
    const value = formData.get(`address.${field}`);
    // Whitespace runs collapse: nobody means a tab in a street name.
    return typeof value === "string" ? value.replace(/\s+/g, " ").trim().slice(0, 250) : "";
  };
  return Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, read(field)])) as AddressValues;
}

/** Control characters and markup brackets have no place on a parcel label. */
const UNSAFE = /[<>\p{Cc}]/u;

/**
 * Checks a delivery address for one of the shop's countries. Answers the address to store (the
 * postcode in its usual form) or a message per field, each saying what to fix.
 */
export function checkDeliveryAddress(
  values: AddressValues,
  shopCountries: readonly string[],
): { ok: true; address: ShippingAddress } | { ok: false; errors: AddressErrors } {
  const errors: AddressErrors = {};
  const required: Record<AddressField, string | null> = {
    name: "Enter the name of the person the parcel is for",
    line1: "Enter the first line of the address",
    line2: null,
    town: "Enter the town or city",
    region: null,
    postcode: "Enter the postcode",
    country: "Choose the country",
  };
  for (const field of ADDRESS_FIELDS) {
    const value = values[field];
    if (!value && required[field]) errors[field] = required[field]!;
    else if (value.length > LIMITS[field]) errors[field] = `Use ${LIMITS[field]} characters or fewer`;
    else if (UNSAFE.test(value)) errors[field] = "Remove the < and > characters";
  }
  const country = values.country.toUpperCase();
  const offered = deliveryCountries(shopCountries).some((candidate) => candidate.code === country);
  const rule = POSTCODE_RULES[country];
  if (values.country && (!offered || !rule)) errors.country = "We do not deliver to that country: choose another";
  let postcode = values.postcode.toUpperCase().replace(/\s+/g, " ");
  if (rule && offered && !errors.postcode) {
    if (!rule.pattern.test(postcode)) {
      errors.postcode = `Enter a valid ${rule.label}, like ${rule.example}`;
    } else if (rule.format) {
      postcode = rule.format(postcode);
    }
  }
  if (rule?.regionRequired && offered && !values.region && !errors.region) {
    errors.region = `Enter the ${rule.regionLabel.toLowerCase()}`;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    address: {
      name: values.name,
      line1: values.line1,
      ...(values.line2 ? { line2: values.line2 } : {}),
      town: values.town,
      ...(values.region ? { region: values.region } : {}),
      postcode,
      country,
    },
  };
}

/** An address as the lines of a label, for pages and emails. */
export function addressLines(address: ShippingAddress): string[] {
  return [
    address.name,
    address.line1,
    address.line2,
    address.town,
    address.region,
    address.postcode,
    POSTCODE_RULES[address.country]?.name ?? address.country,
  ].filter((line): line is string => Boolean(line));
}
