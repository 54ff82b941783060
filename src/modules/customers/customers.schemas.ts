import { Type, type Static } from 'typebox';
import { DateTime, named, Nullable, pageQuery, StringEnum, Uuid } from '../../shared/schemas.js';

export const CUSTOMER_TIERS = ['tier_1', 'tier_2', 'tier_3', 'tier_4'] as const;
export const REGIONS = ['amer', 'apac', 'emea', 'latam', 'asean'] as const;

const Name = Type.String({ minLength: 1, maxLength: 255 });
const Email = Type.String({ format: 'email', maxLength: 320, description: 'Unique in the organization, compared case-insensitively' });
const Text = (maxLength = 255) => Type.String({ maxLength });
const Url = () => Type.String({ format: 'http-url', maxLength: 2048 });

/**
 * Input of account_value: a JSON number or a numeric string. Strings are checked here by the
 * 'decimal' format; numbers by the service, since a float's decimal places cannot be checked
 * reliably in JSON Schema (multipleOf 0.01 fails on binary fractions).
 */
const AccountValueInput = Type.Unsafe<number | string | null>({
  type: ['number', 'string', 'null'],
  format: 'decimal',
  description: 'Non-negative, at most 13 integer digits and 2 decimal places, as a number or a string ("1500.50"); null clears it',
  examples: ['1500.50'],
});

/** The optional fields, the same on create and update; null means "not set". */
const optionalFields = {
  company: Type.Optional(Nullable(Text())),
  department: Type.Optional(Nullable(Text())),
  title: Type.Optional(Nullable(Text())),
  customer_tier: Type.Optional(Nullable(StringEnum(CUSTOMER_TIERS))),
  contact_number: Type.Optional(Nullable(Text())),
  pronoun: Type.Optional(Nullable(Text())),
  location_country: Type.Optional(Nullable(Text())),
  location_city: Type.Optional(Nullable(Text())),
  location_state: Type.Optional(Nullable(Text())),
  location_zip: Type.Optional(Nullable(Text())),
  location_address: Type.Optional(Nullable(Text(1000))),
  region: Type.Optional(Nullable(StringEnum(REGIONS))),
  timezone: Type.Optional(Nullable(Type.String({ format: 'iana-timezone', maxLength: 64, examples: ['Europe/Paris'] }))),
  account_value: Type.Optional(AccountValueInput),
  social_linkedin: Type.Optional(Nullable(Url())),
  social_website: Type.Optional(Nullable(Url())),
  social_github: Type.Optional(Nullable(Url())),
  notes: Type.Optional(Nullable(Text(1000))),
};

export const Customer = named(
  'Customer',
  Type.Object(
    {
      id: Uuid(),
      name: Type.String(),
      email: Type.String(),
      company: Nullable(Type.String()),
      department: Nullable(Type.String()),
      title: Nullable(Type.String()),
      customer_tier: Nullable(StringEnum(CUSTOMER_TIERS)),
      contact_number: Nullable(Type.String()),
      pronoun: Nullable(Type.String()),
      location_country: Nullable(Type.String()),
      location_city: Nullable(Type.String()),
      location_state: Nullable(Type.String()),
      location_zip: Nullable(Type.String()),
      location_address: Nullable(Type.String()),
      region: Nullable(StringEnum(REGIONS)),
      timezone: Nullable(Type.String()),
      account_value: Nullable(Type.String({ description: 'Fixed-point decimal with 2 places', examples: ['1500.00'] })),
      has_premium_support: Type.Boolean(),
      is_vip: Type.Boolean(),
      social_linkedin: Nullable(Type.String()),
      social_website: Nullable(Type.String()),
      social_github: Nullable(Type.String()),
      notes: Nullable(Type.String()),
      created_at: DateTime(),
      updated_at: DateTime(),
      email_status: StringEnum(['ok', 'bouncing'] as const, {
        description: '`bouncing`: mail to the address bounced hard 3 times in a row; no mail is sent to it until the address changes',
      }),
    },
    {
      examples: [
        {
          id: '3d2c1b0a-9f8e-4d7c-b6a5-4f3e2d1c0b9a',
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          company: 'Analytical Engines Ltd',
          department: 'Finance',
          title: 'Head of Accounts',
          customer_tier: 'tier_2',
          contact_number: '+44 20 7946 0958',
          pronoun: 'she/her',
          location_country: 'United Kingdom',
          location_city: 'London',
          location_state: null,
          location_zip: 'SW1A 1AA',
          location_address: '12 Example Street',
          region: 'emea',
          timezone: 'Europe/London',
          account_value: '1500.00',
          has_premium_support: true,
          is_vip: false,
          social_linkedin: 'https://www.linkedin.com/in/ada-example',
          social_website: 'https://example.com',
          social_github: null,
          notes: 'Prefers email over phone.',
          created_at: '2026-01-12T08:30:00.000Z',
          updated_at: '2026-01-31T09:15:02.123Z',
          email_status: 'ok',
        },
      ],
    },
  ),
);
export type Customer = Static<typeof Customer>;

export const CustomerParams = Type.Object({ customer_id: Uuid() });

export const CreateCustomerBody = Type.Object(
  {
    name: Name,
    email: Email,
    ...optionalFields,
    has_premium_support: Type.Optional(Type.Boolean({ default: false })),
    is_vip: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false, examples: [{ name: 'Charles Babbage', email: 'charles@example.com', company: 'Difference Engines Ltd', customer_tier: 'tier_2', is_vip: false }] },
);
export type CreateCustomerBody = Static<typeof CreateCustomerBody>;

export const UpdateCustomerBody = Type.Object(
  {
    name: Type.Optional(Name),
    email: Type.Optional(Email),
    ...optionalFields,
    has_premium_support: Type.Optional(Type.Boolean()),
    is_vip: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, examples: [{ company: 'Difference Engines plc', is_vip: true }] },
);
export type UpdateCustomerBody = Static<typeof UpdateCustomerBody>;

export const ListCustomersQuery = Type.Object(
  {
    email: Type.Optional(Type.String({ format: 'email', maxLength: 320, description: 'The customer with this email, compared case-insensitively' })),
    updated_since: Type.Optional(
      DateTime({ description: 'Only customers changed at or after this moment (updated_at >= it): what changed since the last sync' }),
    ),
    ...pageQuery(50, 100),
  },
  { additionalProperties: false },
);
export type ListCustomersQuery = Static<typeof ListCustomersQuery>;
