import { Type, type Static } from 'typebox';
import { DateTime, named, Nullable, pageQuery, StringEnum, Uuid } from '../../shared/schemas.js';

export const INBOUND_TYPES = ['imap', 'smtp', 'none'] as const;
export const SECURITIES = ['tls', 'starttls', 'none'] as const;
export const MAILBOX_STATES = ['active', 'failing', 'paused'] as const;

const Host = Type.String({
  minLength: 1,
  maxLength: 253,
  description: 'A host name or IP address on a public address (private ones only with MAIL_ALLOW_PRIVATE=true)',
});
const Port = Type.Integer({ minimum: 1, maximum: 65535 });
const Security = StringEnum(SECURITIES, { description: '`tls`: TLS from the first byte (IMAPS 993, SMTPS 465); `starttls`: upgraded after connecting; `none`: plain text' });
const Username = Type.String({ minLength: 1, maxLength: 320 });
const Password = Type.String({ minLength: 1, maxLength: 1000, description: 'Write-only: never shown in an answer' });
const Folder = Type.String({ minLength: 1, maxLength: 200 });
const Address = Type.String({ format: 'email', maxLength: 254, description: 'Stored lower-cased; unique within the organization' });
const Name = Type.String({ minLength: 1, maxLength: 200, description: 'Shown as the display name of mail sent from the mailbox' });

const inboundProperties = {
  type: StringEnum(INBOUND_TYPES, {
    description:
      '`imap`: polled (IDLE where the server offers it); `smtp`: mail for `address` arrives at the service\'s own SMTP listener (MAIL_SMTP_PORT); `none`: no intake but POST /v1/mailboxes/{id}/messages',
  }),
  host: Type.Optional(Host),
  port: Type.Optional(Port),
  security: Type.Optional(Security),
  username: Type.Optional(Username),
  folder: Type.Optional(Folder),
};

const InboundView = Type.Object(inboundProperties, { description: 'How mail comes in; imap shows host, port, security, username and folder, never the password' });
const InboundInput = Type.Object(
  { ...inboundProperties, password: Type.Optional(Password) },
  {
    additionalProperties: false,
    description: 'imap needs host, port, security, username and password (folder defaults to INBOX); smtp and none take no other field',
  },
);
const InboundPatch = Type.Object(
  {
    type: Type.Optional(inboundProperties.type),
    host: Type.Optional(Host),
    port: Type.Optional(Port),
    security: Type.Optional(Security),
    username: Type.Optional(Username),
    password: Type.Optional(Password),
    folder: Type.Optional(Folder),
  },
  { additionalProperties: false, description: 'Merged into the current settings: give only what changes' },
);

const outboundProperties = { host: Host, port: Port, security: Security, username: Type.Optional(Username) };
const OutboundView = Type.Object(outboundProperties);
const OutboundInput = Type.Object(
  { ...outboundProperties, password: Type.Optional(Password) },
  { additionalProperties: false, description: 'The mailbox\'s own SMTP server; null sends through the installation\'s SMTP_URL' },
);
const OutboundPatch = Type.Object(
  {
    host: Type.Optional(Host),
    port: Type.Optional(Port),
    security: Type.Optional(Security),
    username: Type.Optional(Nullable(Username)),
    password: Type.Optional(Nullable(Password)),
  },
  { additionalProperties: false, description: 'Merged into the current server settings (a full object when there are none yet); null for SMTP_URL' },
);

const EXAMPLE = {
  id: '5d0a3c2e-8f1b-4c7d-9e2a-1b3c4d5e6f70',
  address: 'support@acme.test',
  name: 'Acme Support',
  auto_reply: true,
  is_default: true,
  inbound: { type: 'imap', host: 'imap.acme.test', port: 993, security: 'tls', username: 'support@acme.test', folder: 'INBOX' },
  outbound: { host: 'smtp.acme.test', port: 587, security: 'starttls', username: 'support@acme.test' },
  state: 'active',
  last_error: null,
  last_checked_at: '2026-01-31T09:20:00.000Z',
  created_at: '2026-01-31T09:15:02.123Z',
  updated_at: '2026-01-31T09:15:02.123Z',
};

export const Mailbox = named(
  'Mailbox',
  Type.Object(
    {
      id: Uuid(),
      address: Type.String(),
      name: Type.String(),
      auto_reply: Type.Boolean({ description: 'Acknowledge a ticket opened by mail with a reply naming its display id' }),
      is_default: Type.Boolean({ description: 'At most one per organization: tickets created through the API are answered through it' }),
      inbound: InboundView,
      outbound: Nullable(OutboundView),
      state: StringEnum(MAILBOX_STATES, {
        description: '`active`; `failing`: the mail server refused or could not be reached (see last_error), retried with backoff; `paused`: set by you, no intake',
      }),
      last_error: Nullable(Type.String({ description: "The mail server's own words at the last failure" })),
      last_checked_at: Nullable(DateTime({ description: 'When the mailbox was last read (imap)' })),
      created_at: DateTime(),
      updated_at: DateTime(),
    },
    { examples: [EXAMPLE] },
  ),
);
export type Mailbox = Static<typeof Mailbox>;

export const MailboxParams = Type.Object({ mailbox_id: Uuid() });

export const CreateMailboxBody = Type.Object(
  {
    address: Address,
    name: Name,
    auto_reply: Type.Optional(Type.Boolean({ default: true })),
    is_default: Type.Optional(
      Type.Boolean({ description: 'true makes it the default (the previous default stops being one); omitted: true when the organization has no default yet' }),
    ),
    inbound: Type.Optional(InboundInput),
    outbound: Type.Optional(Nullable(OutboundInput)),
  },
  {
    additionalProperties: false,
    examples: [
      {
        address: 'support@acme.test',
        name: 'Acme Support',
        inbound: { type: 'imap', host: 'imap.acme.test', port: 993, security: 'tls', username: 'support@acme.test', password: 'app-password' },
        outbound: null,
      },
    ],
  },
);
export type CreateMailboxBody = Static<typeof CreateMailboxBody>;

export const UpdateMailboxBody = Type.Object(
  {
    address: Type.Optional(Address),
    name: Type.Optional(Name),
    auto_reply: Type.Optional(Type.Boolean()),
    is_default: Type.Optional(Type.Boolean({ description: 'true makes it the default (the previous default stops being one); false leaves the organization without one' })),
    inbound: Type.Optional(InboundPatch),
    outbound: Type.Optional(Nullable(OutboundPatch)),
    state: Type.Optional(StringEnum(['active', 'paused'] as const, { description: 'Pause intake, or resume it (also of a failing mailbox: tried again at once)' })),
  },
  { additionalProperties: false, examples: [{ state: 'paused' }] },
);
export type UpdateMailboxBody = Static<typeof UpdateMailboxBody>;

export const ListMailboxesQuery = Type.Object({ ...pageQuery(50, 100) }, { additionalProperties: false });
export type ListMailboxesQuery = Static<typeof ListMailboxesQuery>;
