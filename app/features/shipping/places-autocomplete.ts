/**
 * Google Places autocomplete on the delivery address's first line (docs/shop.md "Shipping"). Only
 * the cart uses it, only when a Maps key is configured and merch is in the cart, and the script
 * is fetched only when the buyer first focuses the field. Picking a suggestion fills the address
 * fields, which stay editable; if the script cannot load, the plain form still works.
 */

type AddressComponent = { long_name: string; short_name: string; types: string[] };
type Autocomplete = {
  addListener(event: "place_changed", handler: () => void): void;
  getPlace(): { address_components?: AddressComponent[] };
};
type PlacesLibrary = {
  Autocomplete: new (input: HTMLInputElement, options: Record<string, unknown>) => Autocomplete;
};
type MapsGlobal = { maps: { importLibrary(name: "places"): Promise<PlacesLibrary> } };

let loading: Promise<PlacesLibrary> | undefined;

function loadPlaces(scriptUrl: string) {
  loading ??= new Promise<PlacesLibrary>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = scriptUrl;
    script.async = true;
    // The page's nonce lets the script through the Content-Security-Policy.
    const nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce;
    if (nonce) script.nonce = nonce;
    script.onload = () => {
      const google = (window as unknown as { google?: MapsGlobal }).google;
      if (!google) return reject(new Error("Google Maps did not load"));
      google.maps.importLibrary("places").then(resolve, reject);
    };
    script.onerror = () => {
      loading = undefined;
      script.remove();
      reject(new Error("Google Maps could not be reached"));
    };
    document.head.append(script);
  });
  return loading;
}

function part(components: AddressComponent[], type: string, short = false) {
  const found = components.find((component) => component.types.includes(type));
  return found ? (short ? found.short_name : found.long_name) : "";
}

/** The address fields a picked place fills, by the form's field names. */
export function addressFromPlace(components: AddressComponent[]) {
  const street = [part(components, "street_number"), part(components, "route")].filter(Boolean).join(" ");
  return {
    line1: street || part(components, "premise"),
    town: part(components, "postal_town") || part(components, "locality"),
    region: part(components, "administrative_area_level_2") || part(components, "administrative_area_level_1"),
    postcode: part(components, "postal_code"),
    country: part(components, "country", true),
  };
}

const attached = new WeakSet<HTMLInputElement>();

/** Called on the first focus of the address's first line: loads Places and attaches it there. */
export function attachPlaces(input: HTMLInputElement, scriptUrl: string, countries: string[]) {
  if (attached.has(input)) return;
  attached.add(input);
  loadPlaces(scriptUrl).then(
    ({ Autocomplete }) => {
      const autocomplete = new Autocomplete(input, {
        fields: ["address_components"],
        types: ["address"],
        componentRestrictions: { country: countries.map((code) => code.toLowerCase()) },
      });
      autocomplete.addListener("place_changed", () => {
        const components = autocomplete.getPlace().address_components;
        if (!components) return;
        const address = addressFromPlace(components);
        for (const [field, value] of Object.entries(address)) {
          const element = document.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="address.${field}"]`);
          if (!element || !value) continue;
          // A country the shop does not deliver to is left for the buyer to choose.
          if (element instanceof HTMLSelectElement && ![...element.options].some((o) => o.value === value)) continue;
          element.value = value;
        }
      });
    },
    () => attached.delete(input),
  );
}
