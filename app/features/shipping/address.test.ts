import { describe, expect, it } from "vitest";
import { type AddressValues, addressLines, checkDeliveryAddress, deliveryCountries } from "./address";
import { addressFromPlace } from "./places-autocomplete";
import { shippingFee } from "./rates";

const base: AddressValues = {
  name: "Ada Driver",
  line1: "1 Paddock Lane",
  line2: "",
  town: "Silverstone",
  region: "",
  postcode: "NN12 8TN",
  country: "GB",
};
const ALL = ["GB", "IE", "US", "DE", "FR", "NL"];

function postcodeError(country: string, postcode: string, extra: Partial<AddressValues> = {}) {
  const result = checkDeliveryAddress({ ...base, country, postcode, ...extra }, ALL);
  return result.ok ? null : (result.errors.postcode ?? result.errors.region ?? null);
}

describe("delivery addresses", () => {
  it("accepts each country's postcodes in their usual forms and stores them tidied", () => {
    const stored = (country: string, postcode: string, extra: Partial<AddressValues> = {}) => {
      const result = checkDeliveryAddress({ ...base, country, postcode, ...extra }, ALL);
      return result.ok ? result.address.postcode : result.errors;
    };
    expect(stored("GB", "sw1a1aa")).toBe("SW1A 1AA");
    expect(stored("GB", "M1 1AE")).toBe("M1 1AE");
    expect(stored("IE", "d02af30")).toBe("D02 AF30");
    expect(stored("IE", "D6W 1234")).toBe("D6W 1234");
    expect(stored("US", "94103-1234", { region: "CA" })).toBe("94103-1234");
    expect(stored("DE", "10115")).toBe("10115");
    expect(stored("NL", "1012ab")).toBe("1012 AB");
  });

  it("names what is wrong per field", () => {
    expect(postcodeError("GB", "12345")).toBe("Enter a valid Postcode, like SW1A 1AA");
    expect(postcodeError("IE", "B02 AF30")).toBe("Enter a valid Eircode, like D02 AF30");
    expect(postcodeError("US", "9410")).toBe("Enter a valid ZIP code, like 94103");
    expect(postcodeError("US", "94103")).toBe("Enter the state");
    expect(postcodeError("NL", "0123 AB")).toBe("Enter a valid Postcode, like 1012 AB");
    const empty = checkDeliveryAddress({ ...base, name: " ".trim(), line1: "", town: "", postcode: "" }, ["GB"]);
    expect(empty).toEqual({
      ok: false,
      errors: {
        name: "Enter the name of the person the parcel is for",
        line1: "Enter the first line of the address",
        town: "Enter the town or city",
        postcode: "Enter the postcode",
      },
    });
  });

  it("refuses a country the shop does not deliver to, or has no postcode rule for", () => {
    expect(checkDeliveryAddress({ ...base, country: "DE", postcode: "10115" }, ["GB"])).toEqual({
      ok: false,
      errors: { country: "We do not deliver to that country: choose another" },
    });
    expect(deliveryCountries(["GB", "ZZ", "ie"]).map((country) => country.code)).toEqual(["GB", "IE"]);
    expect(checkDeliveryAddress({ ...base, country: "ZZ" }, ["GB", "ZZ"]).ok).toBe(false);
  });

  it("refuses markup and control characters instead of storing them", () => {
    const result = checkDeliveryAddress({ ...base, line2: "<script>alert(1)</script>" }, ["GB"]);
    expect(result).toEqual({ ok: false, errors: { line2: "Remove the < and > characters" } });
  });

  it("prints an address as label lines, the country by name", () => {
    const result = checkDeliveryAddress({ ...base, line2: "Unit 4" }, ["GB"]);
    if (!result.ok) throw new Error("expected a valid address");
    expect(addressLines(result.address)).toEqual([
      "Ada Driver",
      "1 Paddock Lane",
      "Unit 4",
      "Silverstone",
      "NN12 8TN",
      "United Kingdom",
    ]);
  });
});

describe("shipping fees", () => {
  const rates = { flatFee: 495, freeOver: 5000, collectionEnabled: true };
  it("charges the flat fee under the threshold, nothing from it, and nothing to collect", () => {
    expect(shippingFee(rates, "delivery", 4999)).toBe(495);
    expect(shippingFee(rates, "delivery", 5000)).toBe(0);
    expect(shippingFee({ ...rates, freeOver: null }, "delivery", 1_000_000)).toBe(495);
    expect(shippingFee(rates, "collection", 100)).toBe(0);
  });
});

describe("a place picked from Google's suggestions", () => {
  it("fills line 1, town, region, postcode and country", () => {
    const part = (long: string, types: string[], short = long) => ({ longText: long, shortText: short, types });
    expect(
      addressFromPlace([
        part("10", ["street_number"]),
        part("Downing Street", ["route"]),
        part("London", ["postal_town"]),
        part("Greater London", ["administrative_area_level_2"]),
        part("SW1A 2AA", ["postal_code"]),
        part("United Kingdom", ["country"], "GB"),
      ]),
    ).toEqual({
      line1: "10 Downing Street",
      town: "London",
      region: "Greater London",
      postcode: "SW1A 2AA",
      country: "GB",
    });
  });
});
