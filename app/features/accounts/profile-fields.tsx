import type { FieldMetadata } from "@conform-to/react";
import { Link } from "react-router";
import { Checkbox, Field } from "~/ui/form";
import type { FieldLike } from "~/ui/light-form";

type Meta = FieldMetadata<string | undefined | null>;

/** The profile inputs shared by onboarding (/newProfile) and /settings. */
export function ProfileFields({
  fields,
  askTerms,
  askConsent = true,
}: {
  fields: {
    handle: Meta;
    name: Meta;
    town: Meta;
    dateOfBirth: Meta;
    instagram: Meta;
    marketingConsent?: FieldMetadata<string | boolean | undefined | null>;
    terms?: FieldMetadata<string | boolean | undefined | null>;
  };
  askTerms: boolean;
  /** /settings asks for marketing consent with the other email choices instead. */
  askConsent?: boolean;
}) {
  return (
    <>
      <Field
        meta={fields.handle}
        label="Handle"
        hint="Your public name in the community, like @samsgarage: 3 to 24 lowercase letters, numbers, dots or underscores."
        inputProps={{ autoComplete: "username", autoCapitalize: "none", spellCheck: false }}
      />
      <Field meta={fields.name} label="Display name" inputProps={{ autoComplete: "name" }} />
      <Field
        meta={fields.town}
        label="Town (optional)"
        hint="Shown on your profile so members nearby can find you."
        inputProps={{ autoComplete: "address-level2" }}
      />
      <Field
        meta={fields.dateOfBirth}
        label="Date of birth (optional)"
        type="date"
        hint="Never shown. Prize draws need you to be 18 or over."
        inputProps={{ autoComplete: "bday" }}
      />
      <Field
        meta={fields.instagram}
        label="Instagram (optional)"
        hint="Your handle, like @my.car."
        inputProps={{ autoCapitalize: "none", spellCheck: false }}
      />
      {askConsent && fields.marketingConsent ? (
        <Checkbox meta={fields.marketingConsent}>
          Email me about new events, draws and club news. You can stop at any time.
        </Checkbox>
      ) : null}
      {askTerms && fields.terms ? <TermsCheckbox meta={fields.terms} /> : null}
    </>
  );
}

/** The terms box of sign-up and onboarding; the pages open in a new tab so nothing typed is lost. */
export function TermsCheckbox({ meta }: { meta: FieldLike }) {
  return (
    <Checkbox meta={meta}>
      I accept the{" "}
      <Link to="/terms" className="font-semibold text-link underline" target="_blank">
        terms
      </Link>{" "}
      and have read the{" "}
      <Link to="/privacy" className="font-semibold text-link underline" target="_blank">
        privacy notice
      </Link>
      .
    </Checkbox>
  );
}
