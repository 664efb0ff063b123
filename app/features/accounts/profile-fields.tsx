import type { FieldMetadata } from "@conform-to/react";
import { Link } from "react-router";
import { Checkbox, Field } from "~/ui/form";
import type { FieldLike } from "~/ui/light-form";
import type { Profile } from "./profile.server";

type Meta = FieldMetadata<string | undefined | null>;

/** What the profile inputs start with: the saved profile, its choices as ticked boxes send them. */
export function profileFieldDefaults(profile: Profile) {
  return {
    handle: profile.handle ?? "",
    name: profile.name,
    town: profile.town ?? "",
    townPublic: profile.townPublic ? "on" : undefined,
    avatarPublic: profile.avatarPublic ? "on" : undefined,
    dateOfBirth: profile.dateOfBirth ?? "",
    instagram: profile.instagram ?? "",
  };
}

/** The profile inputs shared by onboarding (/newProfile) and /settings. */
export function ProfileFields({
  fields,
  askTerms,
  askConsent = true,
  dateOfBirthLocked = false,
}: {
  fields: {
    handle: Meta;
    name: Meta;
    town: Meta;
    dateOfBirth: Meta;
    instagram: Meta;
    townPublic?: FieldMetadata<string | boolean | undefined | null>;
    avatarPublic?: FieldMetadata<string | boolean | undefined | null>;
    marketingConsent?: FieldMetadata<string | boolean | undefined | null>;
    terms?: FieldMetadata<string | boolean | undefined | null>;
  };
  askTerms: boolean;
  /** /settings asks for marketing consent with the other email choices instead. */
  askConsent?: boolean;
  /** Once the member has entered a prize draw the date of birth is shown but not changed here. */
  dateOfBirthLocked?: boolean;
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
        hint="Shown on your community profile only if you choose so below."
        inputProps={{ autoComplete: "address-level2" }}
      />
      {fields.townPublic && fields.avatarPublic ? (
        <fieldset className="space-y-3">
          <legend className="font-semibold">On your community profile, for everyone to see</legend>
          <Checkbox meta={fields.avatarPublic}>Show my profile photo</Checkbox>
          <Checkbox meta={fields.townPublic}>Show my town</Checkbox>
        </fieldset>
      ) : null}
      <Field
        meta={fields.dateOfBirth}
        label="Date of birth (optional)"
        type="date"
        hint={
          dateOfBirthLocked
            ? "Never shown. Locked because you have entered a prize draw: to change it, contact us."
            : "Never shown. Prize draws need you to be 18 or over."
        }
        inputProps={dateOfBirthLocked ? { readOnly: true, "aria-readonly": true } : { autoComplete: "bday" }}
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
