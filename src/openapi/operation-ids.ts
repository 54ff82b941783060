/**
 * The `operationId` of every operation, by "METHOD /path" (OpenAPI path form). Client generators
 * name their methods after these, so they are part of the interface: never rename one. A route
 * missing here stops the document from being generated (and the OpenAPI test names it).
 */
export const OPERATION_IDS: Record<string, string> = {
  'GET /healthz': 'getLiveness',
  'GET /readyz': 'getReadiness',
  'GET /v1/test': 'getCurrentKey',
  'GET /v1/tickets': 'listTickets',
  'POST /v1/tickets': 'createTicket',
  'GET /v1/tickets/{ticket_id}': 'getTicket',
  'PATCH /v1/tickets/{ticket_id}': 'updateTicket',
  'DELETE /v1/tickets/{ticket_id}': 'deleteTicket',
  'POST /v1/tickets/{ticket_id}/tracking-token': 'createTrackingToken',
  'GET /v1/tickets/{ticket_id}/events': 'listTicketEvents',
  'GET /v1/customers': 'listCustomers',
  'POST /v1/customers': 'createCustomer',
  'GET /v1/customers/{customer_id}': 'getCustomer',
  'PATCH /v1/customers/{customer_id}': 'updateCustomer',
  'DELETE /v1/customers/{customer_id}': 'deleteCustomer',
  'GET /v1/users': 'listUsers',
  'POST /v1/users': 'createUser',
  'GET /v1/users/{user_id}': 'getUser',
  'PATCH /v1/users/{user_id}': 'updateUser',
  'DELETE /v1/users/{user_id}': 'deleteUser',
  'GET /v1/teams': 'listTeams',
  'POST /v1/teams': 'createTeam',
  'GET /v1/teams/{team_id}': 'getTeam',
  'PATCH /v1/teams/{team_id}': 'updateTeam',
  'DELETE /v1/teams/{team_id}': 'deleteTeam',
  'POST /v1/teams/{team_id}/members': 'addTeamMember',
  'DELETE /v1/teams/{team_id}/members/{user_id}': 'removeTeamMember',
  'GET /v1/tickets/{ticket_id}/comments': 'listComments',
  'POST /v1/tickets/{ticket_id}/comments': 'createComment',
  'GET /v1/tickets/{ticket_id}/comments/{comment_id}': 'getComment',
  'PATCH /v1/tickets/{ticket_id}/comments/{comment_id}': 'updateComment',
  'DELETE /v1/tickets/{ticket_id}/comments/{comment_id}': 'deleteComment',
  'GET /v1/dashboard': 'getDashboard',
  'GET /v1/api-keys': 'listApiKeys',
  'POST /v1/api-keys': 'createApiKey',
  'GET /v1/api-keys/{key_id}': 'getApiKey',
  'PATCH /v1/api-keys/{key_id}': 'updateApiKey',
  'DELETE /v1/api-keys/{key_id}': 'revokeApiKey',
  'GET /v1/events': 'listEvents',
  'GET /v1/webhooks': 'listWebhooks',
  'POST /v1/webhooks': 'createWebhook',
  'GET /v1/webhooks/{webhook_id}': 'getWebhook',
  'PATCH /v1/webhooks/{webhook_id}': 'updateWebhook',
  'DELETE /v1/webhooks/{webhook_id}': 'deleteWebhook',
  'GET /v1/webhooks/{webhook_id}/deliveries': 'listWebhookDeliveries',
  'POST /v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry': 'retryWebhookDelivery',
  'GET /v1/mailboxes': 'listMailboxes',
  'POST /v1/mailboxes': 'createMailbox',
  'GET /v1/mailboxes/{mailbox_id}': 'getMailbox',
  'PATCH /v1/mailboxes/{mailbox_id}': 'updateMailbox',
  'DELETE /v1/mailboxes/{mailbox_id}': 'deleteMailbox',
  'GET /v1/tickets/{ticket_id}/attachments': 'listAttachments',
  'POST /v1/tickets/{ticket_id}/attachments': 'uploadAttachment',
  'GET /v1/tickets/{ticket_id}/attachments/{attachment_id}': 'getAttachment',
  'DELETE /v1/tickets/{ticket_id}/attachments/{attachment_id}': 'deleteAttachment',
  'GET /v1/tickets/{ticket_id}/attachments/{attachment_id}/download': 'getAttachmentDownload',
  'GET /storage/{attachment_id}': 'downloadFile',
  'GET /v1/portal/tickets/{tracking_token}': 'getPortalTicket',
  'GET /v1/portal/tickets/{tracking_token}/comments': 'listPortalComments',
  'POST /v1/portal/tickets/{tracking_token}/comments': 'createPortalComment',
  'GET /v1/portal/tickets/{tracking_token}/attachments/{attachment_id}/download': 'getPortalAttachmentDownload',
  'GET /portal/{tracking_token}': 'getPortalPage',
  'POST /portal/{tracking_token}/reply': 'postPortalReply',
  'GET /portal/{tracking_token}/attachments/{attachment_id}': 'followPortalAttachment',
};

/** The operationId of a route; throws for a route without one, so a new route cannot go unnamed. */
export function operationIdOf(method: string, url: string): string {
  const key = `${method} ${url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
  const id = OPERATION_IDS[key];
  if (id === undefined) throw new Error(`No operationId for ${key}: add one to src/openapi/operation-ids.ts`);
  return id;
}
