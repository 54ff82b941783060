import { Type, type Static } from 'typebox';
import { Nullable, StringEnum } from '../../shared/schemas.js';

export const CHANNELS = ['api', 'portal', 'email'] as const;

/** How a ticket or comment came in. */
export const ChannelField = StringEnum(CHANNELS, { description: '`api`: through the API; `portal`: the customer through self-service; `email`: by mail' });

const AddressList = Type.Array(Type.String(), { description: 'Addresses, lower-cased' });

/** What a ticket or comment that came by mail carries about that mail. */
export const EmailBlock = Type.Object(
  {
    message_id: Nullable(Type.String({ description: 'Its Message-ID, without the angle brackets; null when it had none' })),
    from: Type.String({ description: 'The sender, lower-cased' }),
    to: AddressList,
    cc: AddressList,
    automated: Type.Boolean({ description: 'Sent by a machine (an auto-reply, a list, a bounce): kept, but it never reopens a ticket nor gets an acknowledgement' }),
  },
  { description: 'The mail it came by; its original is downloadable at the `raw` address' },
);
export type EmailBlock = Static<typeof EmailBlock>;

export const EmailField = Nullable(EmailBlock);

export const DELIVERY_STATUSES = ['queued', 'sent', 'failed', 'bounced'] as const;

/** Where a comment sent out by mail stands. */
export const DeliveryBlock = Type.Object(
  {
    status: StringEnum(DELIVERY_STATUSES, {
      description: '`queued`: waiting for its (next) attempt; `sent`: the mail server took it; `failed`: every attempt failed; `bounced`: a delivery-status report came back',
    }),
    to: Type.String(),
    message_id: Type.String({ description: 'The Message-ID it was sent with, without angle brackets' }),
    attempts: Type.Integer({ minimum: 0 }),
    last_error: Nullable(Type.String({ description: "The mail server's words at the last failure" })),
  },
  { description: 'Set on a public agent comment mailed to the customer' },
);
export type DeliveryBlock = Static<typeof DeliveryBlock>;

export const DeliveryField = Nullable(DeliveryBlock);
