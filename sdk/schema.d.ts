/**
 * Generated from openapi.json by `npm run sdk` (openapi-typescript). Do not edit: change the
 * route schemas, run `npm run openapi`, then `npm run sdk`.
 */

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness: 200 while the process serves requests
         * @description Public: no API key needed.
         */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: 200 when the store answers and can write, 503 naming the failed check otherwise
         * @description Public: no API key needed.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verify the API key or session (needs no particular scope)
         * @description Requires a valid API key; no particular scope.
         */
        get: operations["getCurrentKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tickets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List tickets, newest first
         * @description Requires an API key with the scope `tickets:read`.
         */
        get: operations["listTickets"];
        put?: never;
        /**
         * Create a ticket
         * @description Requires an API key with the scope `tickets:write`.
         */
        post: operations["createTicket"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tickets/{ticket_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a ticket
         * @description Requires an API key with the scope `tickets:read`.
         */
        get: operations["getTicket"];
        put?: never;
        post?: never;
        /**
         * Delete a ticket with its comments and attachments
         * @description Requires an API key with the scope `tickets:delete`.
         */
        delete: operations["deleteTicket"];
        options?: never;
        head?: never;
        /**
         * Update a ticket (partial)
         * @description Requires an API key with the scope `tickets:write`.
         */
        patch: operations["updateTicket"];
        trace?: never;
    };
    "/v1/tickets/{ticket_id}/tracking-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the ticket's tracking token
         * @description Issues a new random tracking_token; the old one no longer opens the customer portal. No request body.
         *
         *     Requires an API key with the scope `tickets:write`.
         */
        post: operations["createTrackingToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List customers, oldest first
         * @description Requires an API key with the scope `customers:read`.
         */
        get: operations["listCustomers"];
        put?: never;
        /**
         * Create a customer
         * @description Requires an API key with the scope `customers:write`.
         */
        post: operations["createCustomer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/customers/{customer_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a customer
         * @description Requires an API key with the scope `customers:read`.
         */
        get: operations["getCustomer"];
        put?: never;
        post?: never;
        /**
         * Delete a customer with their tickets and the tickets' comments and attachments
         * @description Requires an API key with the scope `customers:delete`.
         */
        delete: operations["deleteCustomer"];
        options?: never;
        head?: never;
        /**
         * Update a customer (partial)
         * @description Requires an API key with the scope `customers:write`.
         */
        patch: operations["updateCustomer"];
        trace?: never;
    };
    "/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List users (agents), oldest first
         * @description Requires an API key with the scope `users:read`.
         */
        get: operations["listUsers"];
        put?: never;
        /**
         * Create a user
         * @description Requires an API key with the scope `users:write`.
         */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a user
         * @description Requires an API key with the scope `users:read`.
         */
        get: operations["getUser"];
        put?: never;
        post?: never;
        /**
         * Delete a user: unassigns their tickets, removes them from teams, revokes the keys they hold
         * @description Requires an API key with the scope `users:delete`.
         */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        /**
         * Update a user (partial)
         * @description Requires an API key with the scope `users:write`.
         */
        patch: operations["updateUser"];
        trace?: never;
    };
    "/v1/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with email and password: sets the session cookie
         * @description Sets an HttpOnly, SameSite=Strict session cookie (Secure when the service is served over https). A wrong email and a wrong password get the same 401; failed sign-ins are limited per account and per client address (429 with Retry-After).
         *
         *     Public: no API key needed.
         */
        post: operations["createSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed-in session: its user, when it ends if left idle, and its CSRF token
         * @description Requires a valid API key; no particular scope.
         */
        get: operations["getCurrentSession"];
        put?: never;
        post?: never;
        /**
         * Sign out: ends the session and clears its cookie
         * @description Requires a valid API key; no particular scope.
         */
        delete: operations["deleteCurrentSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/teams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List teams, oldest first
         * @description Requires an API key with the scope `teams:read`.
         */
        get: operations["listTeams"];
        put?: never;
        /**
         * Create a team
         * @description Requires an API key with the scope `teams:write`.
         */
        post: operations["createTeam"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/teams/{team_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a team with its members
         * @description Requires an API key with the scope `teams:read`.
         */
        get: operations["getTeam"];
        put?: never;
        post?: never;
        /**
         * Delete a team and unassign its tickets
         * @description Requires an API key with the scope `teams:delete`.
         */
        delete: operations["deleteTeam"];
        options?: never;
        head?: never;
        /**
         * Update a team (partial)
         * @description Requires an API key with the scope `teams:write`.
         */
        patch: operations["updateTeam"];
        trace?: never;
    };
    "/v1/teams/{team_id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a user to a team (201 on a first add, 200 when already a member)
         * @description Requires an API key with the scope `teams:write`.
         */
        post: operations["addTeamMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/teams/{team_id}/members/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a user from a team
         * @description Requires an API key with the scope `teams:write`.
         */
        delete: operations["removeTeamMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organization's tags, most used first
         * @description Each tag with how many tickets carry it; ties by name. A tag no ticket carries any more is not listed.
         *
         *     Requires an API key with the scope `tickets:read`.
         */
        get: operations["listTags"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ticket-fields": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List custom ticket fields, oldest first
         * @description Requires an API key with the scope `fields:read`.
         */
        get: operations["listTicketFields"];
        put?: never;
        /**
         * Define a custom ticket field
         * @description At most 100 per organization (422 past it); a key already defined is 409.
         *
         *     Requires an API key with the scope `fields:write`.
         */
        post: operations["createTicketField"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ticket-fields/{field_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a custom ticket field
         * @description Requires an API key with the scope `fields:read`.
         */
        get: operations["getTicketField"];
        put?: never;
        post?: never;
        /**
         * Delete a custom ticket field and its values
         * @description Every ticket with a value loses it, with a ticket.updated event each.
         *
         *     Requires an API key with the scope `fields:delete`.
         */
        delete: operations["deleteTicketField"];
        options?: never;
        head?: never;
        /**
         * Update a custom ticket field (label, options, required)
         * @description Requires an API key with the scope `fields:write`.
         */
        patch: operations["updateTicketField"];
        trace?: never;
    };
    "/v1/views": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the views the caller sees (shared, and their own), oldest first
         * @description Requires an API key with the scope `views:read`.
         */
        get: operations["listViews"];
        put?: never;
        /**
         * Save a view
         * @description At most MAX_VIEWS_PER_ORG (default 200) per organization (422 past it). A personal view (shared: false) belongs to the caller's user.
         *
         *     Requires an API key with the scope `views:write`.
         */
        post: operations["createView"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/views/counts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Count the tickets of every view the caller sees, at once
         * @description Counts as of `counted_at`, which may be up to VIEWS_COUNTS_MAX_AGE_MS (default 30 s) ago: `age_seconds` and the Age header say how long ago. Ticket changes show at the latest then; a view created, changed or deleted shows at once. A count is null when the view names "me" and the caller has no user.
         *
         *     Requires an API key with the scope `views:read`.
         */
        get: operations["listViewCounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/views/{view_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a view
         * @description Requires an API key with the scope `views:read`.
         */
        get: operations["getView"];
        put?: never;
        post?: never;
        /**
         * Delete a view
         * @description Requires an API key with the scope `views:delete`.
         */
        delete: operations["deleteView"];
        options?: never;
        head?: never;
        /**
         * Update a view (partial)
         * @description Requires an API key with the scope `views:write`.
         */
        patch: operations["updateView"];
        trace?: never;
    };
    "/v1/views/{view_id}/tickets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a view's tickets, in the view's order
         * @description Pages like GET /v1/tickets (offset/limit, or the cursor of the Link header). Needs views:read too.
         *
         *     Requires an API key with the scope `views:read`.
         */
        get: operations["listViewTickets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tickets/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change many tickets at once (a job)
         * @description Applies the actions to each ticket (given by ids, or the tickets a view matches now; at most 1,000) in its own transaction with its own events. Answers 202 with the job at once (Location: /v1/jobs/{job_id}); GET the job for its progress and per-ticket results. An id that names no ticket of the organization fails as its item ("Ticket not found").
         *
         *     Requires an API key with the scope `tickets:write`.
         */
        post: operations["createBulkTicketJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organization's jobs, newest first
         * @description Each with its status and progress; GET a job for its per-ticket results. Jobs that ended more than JOBS_RETENTION_DAYS (default 30) ago are deleted.
         *
         *     Requires an API key with the scope `tickets:read`.
         */
        get: operations["listJobs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a job: its status, progress and per-ticket results
         * @description Requires an API key with the scope `tickets:read`.
         */
        get: operations["getJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/triggers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List triggers, oldest first
         * @description Requires an API key with the scope `automations:read`.
         */
        get: operations["listTriggers"];
        put?: never;
        /**
         * Create a trigger
         * @description Runs once per matching event committed after it is made, after the commit; its own changes run no trigger. At most MAX_TRIGGERS_PER_ORG (default 100) per organization. See docs/api-behaviour.md, "Triggers and automations".
         *
         *     Requires an API key with the scope `automations:write`.
         */
        post: operations["createTrigger"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/triggers/{trigger_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a trigger
         * @description Requires an API key with the scope `automations:read`.
         */
        get: operations["getTrigger"];
        put?: never;
        post?: never;
        /**
         * Delete a trigger
         * @description Requires an API key with the scope `automations:delete`.
         */
        delete: operations["deleteTrigger"];
        options?: never;
        head?: never;
        /**
         * Update a trigger (partial)
         * @description Requires an API key with the scope `automations:write`.
         */
        patch: operations["updateTrigger"];
        trace?: never;
    };
    "/v1/automations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List automations, oldest first
         * @description Requires an API key with the scope `automations:read`.
         */
        get: operations["listAutomations"];
        put?: never;
        /**
         * Create an automation
         * @description Checked every AUTOMATIONS_INTERVAL_MS; a ticket gets its actions once each time its conditions become true. At most MAX_AUTOMATIONS_PER_ORG (default 100) per organization. See docs/api-behaviour.md, "Triggers and automations".
         *
         *     Requires an API key with the scope `automations:write`.
         */
        post: operations["createAutomation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/automations/{automation_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an automation
         * @description Requires an API key with the scope `automations:read`.
         */
        get: operations["getAutomation"];
        put?: never;
        post?: never;
        /**
         * Delete an automation
         * @description Requires an API key with the scope `automations:delete`.
         */
        delete: operations["deleteAutomation"];
        options?: never;
        head?: never;
        /**
         * Update an automation (partial)
         * @description Requires an API key with the scope `automations:write`.
         */
        patch: operations["updateAutomation"];
        trace?: never;
    };
    "/v1/sla-policies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the SLA policies in the order they are tried
         * @description Requires an API key with the scope `sla:read`.
         */
        get: operations["listSlaPolicies"];
        put?: never;
        /**
         * Create an SLA policy
         * @description Policies are tried in ascending position; the first whose conditions match a ticket gives it its clocks (docs/api-behaviour.md, SLA policies). At most MAX_SLA_POLICIES_PER_ORG (default 50) per organization (422 past it).
         *
         *     Requires an API key with the scope `sla:write`.
         */
        post: operations["createSlaPolicy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sla-policies/{sla_policy_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an SLA policy
         * @description Requires an API key with the scope `sla:read`.
         */
        get: operations["getSlaPolicy"];
        put?: never;
        post?: never;
        /**
         * Delete an SLA policy
         * @description Requires an API key with the scope `sla:delete`.
         */
        delete: operations["deleteSlaPolicy"];
        options?: never;
        head?: never;
        /**
         * Update an SLA policy (partial)
         * @description Tickets take the change at their next change (a ticket's clocks are recomputed when its priority or policy changes, keeping time used).
         *
         *     Requires an API key with the scope `sla:write`.
         */
        patch: operations["updateSlaPolicy"];
        trace?: never;
    };
    "/v1/business-hours": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organization's business-hours calendars, oldest first
         * @description Requires an API key with the scope `sla:read`.
         */
        get: operations["listBusinessHours"];
        put?: never;
        /**
         * Create a business-hours calendar
         * @description Weekly hours and holidays in one IANA time zone, which SLA policies count time in. At most MAX_BUSINESS_HOURS_PER_ORG (default 100) per organization (422 past it).
         *
         *     Requires an API key with the scope `sla:write`.
         */
        post: operations["createBusinessHours"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/business-hours/{business_hours_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a business-hours calendar
         * @description Requires an API key with the scope `sla:read`.
         */
        get: operations["getBusinessHours"];
        put?: never;
        post?: never;
        /**
         * Delete a business-hours calendar
         * @description 409 while an SLA policy uses it.
         *
         *     Requires an API key with the scope `sla:delete`.
         */
        delete: operations["deleteBusinessHours"];
        options?: never;
        head?: never;
        /**
         * Update a business-hours calendar (partial; weekly and holidays are replaced whole)
         * @description Requires an API key with the scope `sla:write`.
         */
        patch: operations["updateBusinessHours"];
        trace?: never;
    };
    "/v1/tickets/{ticket_id}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a ticket's comments, oldest first
         * @description Requires an API key with the scope `comments:read`.
         */
        get: operations["listComments"];
        put?: never;
        /**
         * Add a comment to a ticket
         * @description With If-Match (the ticket's ETag, as GET /v1/tickets/{ticket_id} gave it), a reply written against a ticket that has changed since is refused with 412, and nothing is written.
         *
         *     Requires an API key with the scope `comments:write`.
         */
        post: operations["createComment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tickets/{ticket_id}/comments/{comment_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a comment
         * @description Requires an API key with the scope `comments:read`.
         */
        get: operations["getComment"];
        put?: never;
        post?: never;
        /**
         * Delete a comment
         * @description Requires an API key with the scope `comments:delete`.
         */
        delete: operations["deleteComment"];
        options?: never;
        head?: never;
        /**
         * Update a comment (body and is_internal only)
         * @description Requires an API key with the scope `comments:write`.
         */
        patch: operations["updateComment"];
        trace?: never;
    };
    "/v1/macros": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organization's macros, oldest first
         * @description Requires an API key with the scope `macros:read`.
         */
        get: operations["listMacros"];
        put?: never;
        /**
         * Save a macro
         * @description Its actions are checked against the organization's users, teams and custom fields (422 naming the action, e.g. body.actions[2].value). At most MAX_MACROS_PER_ORG (default 500) per organization (422 past it).
         *
         *     Requires an API key with the scope `macros:write`.
         */
        post: operations["createMacro"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/macros/{macro_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a macro
         * @description Requires an API key with the scope `macros:read`.
         */
        get: operations["getMacro"];
        put?: never;
        post?: never;
        /**
         * Delete a macro
         * @description Requires an API key with the scope `macros:delete`.
         */
        delete: operations["deleteMacro"];
        options?: never;
        head?: never;
        /**
         * Update a macro (partial)
         * @description Requires an API key with the scope `macros:write`.
         */
        patch: operations["updateMacro"];
        trace?: never;
    };
    "/v1/tickets/{ticket_id}/macros/{macro_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Apply a macro to a ticket
         * @description Applies every action of the macro in one transaction and answers the ticket (with its ETag; If-Match as for PATCH). Needs macros:read too, and comments:write when the macro writes a comment. An action naming a record deleted since the macro was saved is 422 naming it (macro.actions[i].value) and changes nothing. No request body.
         *
         *     Requires an API key with the scope `tickets:write`.
         */
        post: operations["applyMacro"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization's ticket figures: counts, open work per team and agent, overdue, recent activity, median resolution time
         * @description Requires an API key with the scope `dashboard:read`.
         */
        get: operations["getDashboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys, newest first
         * @description Any valid key. An admin key sees every key of its organization; a read-only key sees itself and the keys of its holder.
         *
         *     Requires a valid API key; no particular scope.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create an API key; the answer carries the plain key, shown this once
         * @description Admin keys only. Key authority: the new key must hold only scopes the calling key holds and expire no later than it (never expiring counts as latest); otherwise 403 naming what is missing. An organization holds at most MAX_API_KEYS_PER_ORG (default 1000) active keys: one more is 422 naming the cap.
         *
         *     Requires an admin key (`key_admin_`).
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an API key
         * @description Any valid key; a key a read-only key may not see is 404.
         *
         *     Requires a valid API key; no particular scope.
         */
        get: operations["getApiKey"];
        put?: never;
        post?: never;
        /**
         * Revoke an API key: refused (401) from the next request on; the record stays
         * @description Admin keys; a read-only key may revoke itself only. A key may always revoke itself; another key only if it holds no scope the calling key lacks and expires no later than it (else 403). Revoking a revoked key is a 204 that changes nothing.
         *
         *     Requires an admin key; a read-only key may call it on its own key only.
         */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        /**
         * Update an API key (partial)
         * @description Admin keys only. An admin key record may change name, scopes, expires_at and holder_user_id; a read-only key record only its name. Revoked and expired keys are 409. Key authority: the key, as it is and as it would become, must hold only scopes the calling key holds and expire no later than it, so no key can widen its own scopes or extend its own expiry; otherwise 403 naming what is missing.
         *
         *     Requires an admin key (`key_admin_`).
         */
        patch: operations["updateApiKey"];
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The change feed: events after a cursor, in commit order
         * @description Every change of the organization, oldest first, in the order the changes were committed. Start without `after`, then pass the `next_cursor` of each answer as `after`: no event is ever skipped or repeated, also with several server processes writing at once. `after=now` starts at the current end: no events, and the `next_cursor` to follow what happens from then on. A cursor older than the retention period is 410. Only the events of resources the key may read are shown: `ticket.*` needs tickets:read, `comment.*` comments:read, `attachment.*` attachments:read, `customer.*` customers:read, `team.*` teams:read, `user.*` users:read, `api_key.*` an admin key; events:read alone shows none.
         *
         *     Requires an API key with the scope `events:read`.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tickets/{ticket_id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A ticket's history, oldest first
         * @description The events of the ticket and of its comments and attachments (those only with `comments:read` and `attachments:read` respectively), oldest first.
         *
         *     Requires an API key with the scope `tickets:read`.
         */
        get: operations["listTicketEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The live stream: changes and presence as Server-Sent Events
         * @description A `text/event-stream` that stays open: each change of the organization as an `event: change` message (its `id:` the event's id, its data the event exactly as in the change feed, filtered by the caller's scopes the same way), `event: presence` messages (who is viewing or replying on which ticket, for callers with tickets:read; the current state of every ticket with someone on it is sent first), and a comment line every ~15 s. `Last-Event-ID` resumes after that event; one no longer kept starts at the current end with an `event: resync` message (reload what you show). Open streams are capped per key or user and per organization (429).
         *
         *     Requires an API key with the scope `events:read`.
         */
        get: operations["followLiveStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tickets/{ticket_id}/presence": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Say that you are viewing or replying on a ticket (presence)
         * @description Shown to the live streams of the organization that may read tickets, as `event: presence`. An entry lapses about 45 s after its last refresh; `gone` removes it at once. A signed-in user appears by their full name; an API key by its name.
         *
         *     Requires an API key with the scope `tickets:read`.
         */
        put: operations["updateTicketPresence"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints, oldest first
         * @description Requires an API key with the scope `webhooks:read`.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Create a webhook endpoint; the answer carries its signing secret, shown this once
         * @description Deliveries follow Standard Webhooks 1.0: a JSON POST `{type, timestamp, data}` (data is the Event) with the headers webhook-id, webhook-timestamp and webhook-signature. The endpoint receives the events committed after it was created. An organization has at most MAX_WEBHOOKS_PER_ORG (default 100) endpoints: one more is 422 naming the cap.
         *
         *     Requires an API key with the scope `webhooks:write`.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook endpoint
         * @description Requires an API key with the scope `webhooks:read`.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint and its delivery log
         * @description Requires an API key with the scope `webhooks:delete`.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Update a webhook endpoint: URL, events, description, pause or resume, rotate the secret
         * @description Requires an API key with the scope `webhooks:write`.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The endpoint's delivery log, newest event first
         * @description Requires an API key with the scope `webhooks:read`.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again, now (once the endpoint is active)
         * @description A failed delivery (after fixing the receiver), or a successful one to send it again, gets one more attempt, sent now; a pending delivery waiting for its next retry is tried now instead, its retry schedule going on from there. No request body.
         *
         *     Requires an API key with the scope `webhooks:write`.
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a signed webhook.test event to the endpoint now, and answer with how the receiver answered
         * @description Signed, checked and timed like a delivery (whatever the endpoint's status, paused and disabled included): the body is `{type: "webhook.test", timestamp, data: {webhook_id, message}}`. A test is no change in the event feed, so it is not in the delivery log: the answer is its record. No request body.
         *
         *     Requires an API key with the scope `webhooks:write`.
         */
        post: operations["createWebhookTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mailboxes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List mailboxes, oldest first
         * @description Requires an API key with the scope `mailboxes:read`.
         */
        get: operations["listMailboxes"];
        put?: never;
        /**
         * Create a mailbox of the email channel
         * @description Mail that arrives at the mailbox becomes tickets and comments; agents' public replies go out from it. Passwords are write-only. Mail servers on loopback, private or link-local addresses are refused (422) unless the installation sets MAIL_ALLOW_PRIVATE=true; an organization has at most MAIL_MAX_MAILBOXES mailboxes (default 50).
         *
         *     Requires an API key with the scope `mailboxes:write`.
         */
        post: operations["createMailbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mailboxes/{mailbox_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a mailbox
         * @description Requires an API key with the scope `mailboxes:read`.
         */
        get: operations["getMailbox"];
        put?: never;
        post?: never;
        /**
         * Delete a mailbox (its tickets and their mail stay)
         * @description Requires an API key with the scope `mailboxes:delete`.
         */
        delete: operations["deleteMailbox"];
        options?: never;
        head?: never;
        /**
         * Update a mailbox: its settings, the default, pause or resume
         * @description Requires an API key with the scope `mailboxes:write`.
         */
        patch: operations["updateMailbox"];
        trace?: never;
    };
    "/v1/tickets/{ticket_id}/attachments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a ticket's attachments, oldest first
         * @description Requires an API key with the scope `attachments:read`.
         */
        get: operations["listAttachments"];
        put?: never;
        /**
         * Upload a file (multipart/form-data, one part named file, at most 30 MB)
         * @description Requires an API key with the scope `attachments:write`.
         */
        post: operations["uploadAttachment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tickets/{ticket_id}/attachments/{attachment_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an attachment's metadata
         * @description Requires an API key with the scope `attachments:read`.
         */
        get: operations["getAttachment"];
        put?: never;
        post?: never;
        /**
         * Delete an attachment and its file
         * @description Requires an API key with the scope `attachments:delete`.
         */
        delete: operations["deleteAttachment"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tickets/{ticket_id}/attachments/{attachment_id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a signed download address, valid for one hour
         * @description Requires an API key with the scope `attachments:read`.
         */
        get: operations["getAttachmentDownload"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/{attachment_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an attachment through a signed address (no Authorization)
         * @description Public: no API key needed.
         */
        get: operations["downloadFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mailboxes/{mailbox_id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Take a raw message in, as if the mailbox had received it
         * @description For providers' inbound hooks and for tests: the body is the message itself (Content-Type: message/rfc822, at most 40 MiB). It is threaded, deduplicated and stored exactly as mail fetched by IMAP or received by the SMTP listener.
         *
         *     Requires an API key with the scope `mailboxes:write`.
         */
        post: operations["postMailboxMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tickets/{ticket_id}/raw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The original message of a ticket opened by mail (message/rfc822)
         * @description Requires an API key with the scope `tickets:read`.
         */
        get: operations["getTicketRawMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tickets/{ticket_id}/comments/{comment_id}/raw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The original message of a comment that came by mail (message/rfc822)
         * @description Requires an API key with the scope `comments:read`.
         */
        get: operations["getCommentRawMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/portal/tickets/{tracking_token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The ticket a tracking token opens, with its public thread and files
         * @description An unknown or malformed token is a 404 with the same body.
         *
         *     Public: no API key needed.
         */
        get: operations["getPortalTicket"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/portal/tickets/{tracking_token}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public comments of the ticket, oldest first (never internal notes)
         * @description Public: no API key needed.
         */
        get: operations["listPortalComments"];
        put?: never;
        /**
         * Reply as the ticket's customer
         * @description A reply to a pending or resolved ticket moves it back to open. A closed ticket takes no replies (409).
         *
         *     Public: no API key needed.
         */
        post: operations["createPortalComment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/portal/tickets/{tracking_token}/attachments/{attachment_id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A signed download address for one of the ticket’s files
         * @description Public: no API key needed.
         */
        get: operations["getPortalAttachmentDownload"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/portal/{tracking_token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The ticket as a web page for the customer (HTML)
         * @description Public: no API key needed.
         */
        get: operations["getPortalPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/portal/{tracking_token}/reply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The page's reply form: field `body`, and up to five file parts named `files` (multipart/form-data)
         * @description Answers 303 See Other back to the ticket page. A refused reply (empty, too long, ticket closed) shows the ticket page again with the reason, as 422 or 409. Files follow the upload rules (allowed types, 30 MB each, content matching the declared type, the storage quota); a refused file refuses the whole reply (400 or 413, the page with the reason and the text kept), and nothing is kept. An urlencoded form (text only) is taken too.
         *
         *     Public: no API key needed.
         */
        post: operations["postPortalReply"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/portal/{tracking_token}/attachments/{attachment_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Opens one of the ticket’s files: redirects to a freshly signed download address
         * @description Public: no API key needed.
         */
        get: operations["followPortalAttachment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @example {
         *       "user_id": "0b5a6a0e-6f4b-4a7e-9d6c-2f1e8f3c9a10"
         *     }
         */
        AddTeamMemberRequest: {
            /** Format: uuid */
            user_id: string;
        };
        AgentLoad: {
            /** Format: uuid */
            id: string;
            full_name: string;
            open: number;
        };
        ApiKey: {
            /** Format: uuid */
            id: string;
            name: string;
            /**
             * @description Type prefix plus the first 6 characters of the secret
             * @example key_admin_a1B2c3
             */
            key_prefix: string;
            /** @enum {string} */
            role: "admin" | "readonly";
            scopes: string[];
            /** Format: uuid */
            holder_user_id: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string | null;
            /**
             * Format: date-time
             * @description Refreshed at most once a minute
             */
            last_used_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
        };
        Attachment: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            ticket_id: string;
            /** @description The name the file was uploaded with; shown, never used as a path */
            filename: string;
            /** @example image/png */
            content_type: string;
            size_bytes: number;
            /**
             * Format: uuid
             * @description The API key holder's user, when the key has one
             */
            uploaded_by_user_id: string | null;
            /** Format: date-time */
            created_at: string;
        };
        Automation: {
            /** Format: uuid */
            id: string;
            name: string;
            conditions: {
                all: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
                any: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
            };
            actions: ({
                /**
                 * @description One of status, priority, assigned_user_id, assigned_team_id, category, due_date, add_tags, remove_tags, comment, or custom_fields.<key>
                 * @example status
                 */
                field: string;
                /** @description The field's new value; its type depends on the field (docs/api-behaviour.md, "Macros and actions") */
                value: string | number | boolean | null | string[] | {
                    body: string;
                    /**
                     * @description An internal note: the customer never sees it
                     * @default false
                     */
                    is_internal?: boolean;
                };
            } | {
                /** @constant */
                field: "notify";
                value: {
                    /**
                     * @description "requester" (the ticket's customer), "assignee" (its assigned user) or an email address
                     * @example assignee
                     */
                    to: string;
                    /** @description Sent as "[TKT-n] <subject>" */
                    subject: string;
                    body: string;
                };
            })[];
            active: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        BusinessHours: {
            /** Format: uuid */
            id: string;
            name: string;
            time_zone: string;
            weekly: {
                /** @enum {string} */
                day: "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
                start: string;
                end: string;
            }[];
            holidays: {
                date: string;
                name?: string;
            }[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        Comment: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            ticket_id: string;
            body: string;
            /** @description An internal note: the customer never sees it */
            is_internal: boolean;
            /**
             * Format: uuid
             * @description The agent who wrote it
             */
            author_user_id: string | null;
            /**
             * Format: uuid
             * @description Set when the customer wrote it (through self-service or by mail)
             */
            author_customer_id: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /**
             * @description `api`: through the API; `portal`: the customer through self-service; `email`: by mail
             * @enum {string}
             */
            channel: "api" | "portal" | "email";
            /** @description The mail it came by; its original is downloadable at the `raw` address */
            email: {
                /** @description Its Message-ID, without the angle brackets; null when it had none */
                message_id: string | null;
                /** @description The sender, lower-cased */
                from: string;
                /** @description Addresses, lower-cased */
                to: string[];
                /** @description Addresses, lower-cased */
                cc: string[];
                /** @description Sent by a machine (an auto-reply, a list, a bounce): kept, but it never reopens a ticket nor gets an acknowledgement */
                automated: boolean;
            } | null;
            /** @description Set on a public agent comment mailed to the customer */
            delivery: {
                /**
                 * @description `queued`: waiting for its (next) attempt; `sent`: the mail server took it; `failed`: every attempt failed; `bounced`: a delivery-status report came back
                 * @enum {string}
                 */
                status: "queued" | "sent" | "failed" | "bounced";
                to: string;
                /** @description The Message-ID it was sent with, without angle brackets */
                message_id: string;
                attempts: number;
                /** @description The mail server's words at the last failure */
                last_error: string | null;
            } | null;
            /** @description The ticket's attachments this comment carries; a public agent comment is mailed with them */
            attachment_ids: string[];
        };
        /**
         * @example {
         *       "name": "Reporting dashboard",
         *       "role": "readonly"
         *     }
         */
        CreateApiKeyRequest: {
            /** @description A label for people; grants nothing */
            name: string;
            /**
             * @description admin (key_admin_) or readonly (key_ro_: only :read scopes, expires after 72 hours)
             * @enum {string}
             */
            role: "admin" | "readonly";
            /** @description resource:action scopes */
            scopes?: ("tickets:read" | "tickets:write" | "tickets:delete" | "comments:read" | "comments:write" | "comments:delete" | "attachments:read" | "attachments:write" | "attachments:delete" | "customers:read" | "customers:write" | "customers:delete" | "teams:read" | "teams:write" | "teams:delete" | "users:read" | "users:write" | "users:delete" | "dashboard:read" | "events:read" | "webhooks:read" | "webhooks:write" | "webhooks:delete" | "fields:read" | "fields:write" | "fields:delete" | "mailboxes:read" | "mailboxes:write" | "mailboxes:delete" | "views:read" | "views:write" | "views:delete" | "macros:read" | "macros:write" | "macros:delete" | "automations:read" | "automations:write" | "automations:delete" | "sla:read" | "sla:write" | "sla:delete")[];
            /**
             * Format: uuid
             * @description The user (agent) the key is issued to; must be a user of the organization
             */
            holder_user_id?: string | null;
            /**
             * Format: date-time
             * @description Must be in the future; null never expires (admin keys only)
             */
            expires_at?: string | null;
        };
        /**
         * @example {
         *       "name": "Pending for 5 days: close with a note",
         *       "conditions": {
         *         "all": [
         *           {
         *             "field": "status",
         *             "operator": "is",
         *             "value": "pending"
         *           },
         *           {
         *             "field": "hours_since_status_change",
         *             "operator": "at_least",
         *             "value": 120
         *           }
         *         ],
         *         "any": []
         *       },
         *       "actions": [
         *         {
         *           "field": "status",
         *           "value": "closed"
         *         },
         *         {
         *           "field": "comment",
         *           "value": {
         *             "body": "Closed after 5 days without an answer.",
         *             "is_internal": true
         *           }
         *         }
         *       ]
         *     }
         */
        CreateAutomationRequest: {
            name: string;
            /** @description At most 20 conditions per list; fields and operators: docs/api-behaviour.md, "Views and conditions". */
            conditions: {
                /** @description Every one must hold. */
                all?: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
                /** @description At least one must hold (when not empty). */
                any?: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
            };
            /** @description 1 to 50 actions: the macro actions (each field at most once) and notify (docs/api-behaviour.md, "Triggers and automations") */
            actions: ({
                /**
                 * @description One of status, priority, assigned_user_id, assigned_team_id, category, due_date, add_tags, remove_tags, comment, or custom_fields.<key>
                 * @example status
                 */
                field: string;
                /** @description The field's new value; its type depends on the field (docs/api-behaviour.md, "Macros and actions") */
                value: string | number | boolean | null | string[] | {
                    body: string;
                    /**
                     * @description An internal note: the customer never sees it
                     * @default false
                     */
                    is_internal?: boolean;
                };
            } | {
                /** @constant */
                field: "notify";
                value: {
                    /**
                     * @description "requester" (the ticket's customer), "assignee" (its assigned user) or an email address
                     * @example assignee
                     */
                    to: string;
                    /** @description Sent as "[TKT-n] <subject>" */
                    subject: string;
                    body: string;
                };
            })[];
            /** @description Inactive ones never run (default true) */
            active?: boolean;
        };
        CreateBulkTicketJobRequest: {
            /** @description The tickets to change, at most 1,000 (a repeated id counts once); or give view_id */
            ids?: string[];
            /**
             * Format: uuid
             * @description A view the caller sees: the tickets it matches when the job is created (at most 1,000); or give ids
             */
            view_id?: string;
            /**
             * @description 1 to 50 actions, each field at most once, applied together to one ticket in one transaction
             * @example [
             *       {
             *         "field": "status",
             *         "value": "pending"
             *       },
             *       {
             *         "field": "assigned_user_id",
             *         "value": "me"
             *       },
             *       {
             *         "field": "add_tags",
             *         "value": [
             *           "waiting"
             *         ]
             *       },
             *       {
             *         "field": "comment",
             *         "value": {
             *           "body": "We are looking into it.",
             *           "is_internal": false
             *         }
             *       }
             *     ]
             */
            actions: {
                /**
                 * @description One of status, priority, assigned_user_id, assigned_team_id, category, due_date, add_tags, remove_tags, comment, or custom_fields.<key>
                 * @example status
                 */
                field: string;
                /** @description The field's new value; its type depends on the field (docs/api-behaviour.md, "Macros and actions") */
                value: string | number | boolean | null | string[] | {
                    body: string;
                    /**
                     * @description An internal note: the customer never sees it
                     * @default false
                     */
                    is_internal?: boolean;
                };
            }[];
        };
        /**
         * @example {
         *       "name": "Berlin office",
         *       "time_zone": "Europe/Berlin",
         *       "weekly": [
         *         {
         *           "day": "mon",
         *           "start": "09:00",
         *           "end": "17:00"
         *         },
         *         {
         *           "day": "tue",
         *           "start": "09:00",
         *           "end": "17:00"
         *         },
         *         {
         *           "day": "wed",
         *           "start": "09:00",
         *           "end": "17:00"
         *         },
         *         {
         *           "day": "thu",
         *           "start": "09:00",
         *           "end": "17:00"
         *         },
         *         {
         *           "day": "fri",
         *           "start": "09:00",
         *           "end": "17:00"
         *         }
         *       ],
         *       "holidays": [
         *         {
         *           "date": "2026-12-25",
         *           "name": "Christmas Day"
         *         }
         *       ]
         *     }
         */
        CreateBusinessHoursRequest: {
            name: string;
            /** @description An IANA time zone name, e.g. Europe/Berlin; hours and holidays are local to it, DST included */
            time_zone: string;
            /** @description Business hours, [start, end) per weekday; several a day allowed, not overlapping; at least one. At most 50. */
            weekly: {
                /** @enum {string} */
                day: "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
                /** @description HH:MM, local wall-clock time */
                start: string;
                /** @description HH:MM after start; 24:00 is the end of the day */
                end: string;
            }[];
            /** @description Distinct dates, at most 400 */
            holidays?: {
                /** @description A local date (YYYY-MM-DD) in the calendar's time zone: no business hours that day */
                date: string;
                name?: string;
            }[];
        };
        /**
         * @example {
         *       "body": "Thanks for the report: we are looking into it.",
         *       "is_internal": false
         *     }
         */
        CreateCommentRequest: {
            body: string;
            /**
             * @description An internal note: the customer never sees it
             * @default false
             */
            is_internal?: boolean;
            /**
             * Format: uuid
             * @description A user of the organization; absent means the key's holder, null means none
             */
            author_user_id?: string | null;
            /** @description Attachments of this ticket (uploaded first) that the comment carries; a public one is mailed with them */
            attachment_ids?: string[];
        };
        /**
         * @example {
         *       "name": "Charles Babbage",
         *       "email": "charles@example.com",
         *       "company": "Difference Engines Ltd",
         *       "customer_tier": "tier_2",
         *       "is_vip": false
         *     }
         */
        CreateCustomerRequest: {
            name: string;
            /**
             * Format: email
             * @description Unique in the organization, compared case-insensitively
             */
            email: string;
            company?: string | null;
            department?: string | null;
            title?: string | null;
            /** @enum {string|null} */
            customer_tier?: "tier_1" | "tier_2" | "tier_3" | "tier_4" | null;
            contact_number?: string | null;
            pronoun?: string | null;
            location_country?: string | null;
            location_city?: string | null;
            location_state?: string | null;
            location_zip?: string | null;
            location_address?: string | null;
            /** @enum {string|null} */
            region?: "amer" | "apac" | "emea" | "latam" | "asean" | null;
            /**
             * Format: iana-timezone
             * @example Europe/Paris
             */
            timezone?: string | null;
            /**
             * Format: decimal
             * @description Non-negative, at most 13 integer digits and 2 decimal places, as a number or a string ("1500.50"); null clears it
             * @example 1500.50
             */
            account_value?: number | string | null;
            /** Format: http-url */
            social_linkedin?: string | null;
            /** Format: http-url */
            social_website?: string | null;
            /** Format: http-url */
            social_github?: string | null;
            notes?: string | null;
            /** @default false */
            has_premium_support?: boolean;
            /** @default false */
            is_vip?: boolean;
        };
        /**
         * @example {
         *       "name": "Ask for a screenshot",
         *       "actions": [
         *         {
         *           "field": "status",
         *           "value": "pending"
         *         },
         *         {
         *           "field": "assigned_user_id",
         *           "value": "me"
         *         },
         *         {
         *           "field": "add_tags",
         *           "value": [
         *             "waiting-on-customer"
         *           ]
         *         },
         *         {
         *           "field": "comment",
         *           "value": {
         *             "body": "Could you send us a screenshot of the error?",
         *             "is_internal": false
         *           }
         *         }
         *       ]
         *     }
         */
        CreateMacroRequest: {
            name: string;
            /** @description What the macro is for, shown to agents choosing one */
            description?: string | null;
            /**
             * @description 1 to 50 actions, each field at most once, applied together to one ticket in one transaction
             * @example [
             *       {
             *         "field": "status",
             *         "value": "pending"
             *       },
             *       {
             *         "field": "assigned_user_id",
             *         "value": "me"
             *       },
             *       {
             *         "field": "add_tags",
             *         "value": [
             *           "waiting"
             *         ]
             *       },
             *       {
             *         "field": "comment",
             *         "value": {
             *           "body": "We are looking into it.",
             *           "is_internal": false
             *         }
             *       }
             *     ]
             */
            actions: {
                /**
                 * @description One of status, priority, assigned_user_id, assigned_team_id, category, due_date, add_tags, remove_tags, comment, or custom_fields.<key>
                 * @example status
                 */
                field: string;
                /** @description The field's new value; its type depends on the field (docs/api-behaviour.md, "Macros and actions") */
                value: string | number | boolean | null | string[] | {
                    body: string;
                    /**
                     * @description An internal note: the customer never sees it
                     * @default false
                     */
                    is_internal?: boolean;
                };
            }[];
        };
        /**
         * @example {
         *       "address": "support@acme.test",
         *       "name": "Acme Support",
         *       "inbound": {
         *         "type": "imap",
         *         "host": "imap.acme.test",
         *         "port": 993,
         *         "security": "tls",
         *         "username": "support@acme.test",
         *         "password": "app-password"
         *       },
         *       "outbound": null
         *     }
         */
        CreateMailboxRequest: {
            /**
             * Format: email
             * @description Stored lower-cased; unique within the organization
             */
            address: string;
            /** @description Shown as the display name of mail sent from the mailbox */
            name: string;
            /** @default true */
            auto_reply?: boolean;
            /** @description true makes it the default (the previous default stops being one); omitted: true when the organization has no default yet */
            is_default?: boolean;
            /** @description imap needs host, port, security, username and password (folder defaults to INBOX); smtp and none take no other field */
            inbound?: {
                /**
                 * @description `imap`: polled (IDLE where the server offers it); `smtp`: mail for `address` arrives at the service's own SMTP listener (MAIL_SMTP_PORT); `none`: no intake but POST /v1/mailboxes/{id}/messages
                 * @enum {string}
                 */
                type: "imap" | "smtp" | "none";
                /** @description A host name or IP address on a public address (private ones only with MAIL_ALLOW_PRIVATE=true) */
                host?: string;
                port?: number;
                /**
                 * @description `tls`: TLS from the first byte (IMAPS 993, SMTPS 465); `starttls`: upgraded after connecting; `none`: plain text
                 * @enum {string}
                 */
                security?: "tls" | "starttls" | "none";
                username?: string;
                folder?: string;
                /** @description Write-only: never shown in an answer */
                password?: string;
            };
            /** @description The mailbox's own SMTP server; null sends through the installation's SMTP_URL */
            outbound?: {
                /** @description A host name or IP address on a public address (private ones only with MAIL_ALLOW_PRIVATE=true) */
                host: string;
                port: number;
                /**
                 * @description `tls`: TLS from the first byte (IMAPS 993, SMTPS 465); `starttls`: upgraded after connecting; `none`: plain text
                 * @enum {string}
                 */
                security: "tls" | "starttls" | "none";
                username?: string;
                /** @description Write-only: never shown in an answer */
                password?: string;
            } | null;
        };
        /**
         * @example {
         *       "body": "It still happens on every invoice."
         *     }
         */
        CreatePortalCommentRequest: {
            /** @description Plain text; not only white space */
            body: string;
        };
        /**
         * @example {
         *       "email": "grace@example.com",
         *       "password": "correct horse battery staple"
         *     }
         */
        CreateSessionRequest: {
            /**
             * Format: email
             * @description The user's email, compared case-insensitively
             */
            email: string;
            password: string;
            /**
             * Format: uuid
             * @description Only when the same email is a user of several organizations: which one to sign in to (default: the oldest user whose password matches)
             */
            organization_id?: string;
        };
        /**
         * @example {
         *       "name": "Urgent tickets",
         *       "position": 0,
         *       "conditions": {
         *         "all": [
         *           {
         *             "field": "priority",
         *             "operator": "in",
         *             "value": [
         *               "high",
         *               "urgent"
         *             ]
         *           }
         *         ],
         *         "any": []
         *       },
         *       "business_hours_id": null,
         *       "targets": [
         *         {
         *           "priority": "urgent",
         *           "first_response_minutes": 30,
         *           "next_response_minutes": 60,
         *           "resolution_minutes": 240,
         *           "warning_minutes": 10
         *         },
         *         {
         *           "priority": "high",
         *           "first_response_minutes": 120,
         *           "next_response_minutes": 240,
         *           "resolution_minutes": 1440,
         *           "warning_minutes": 30
         *         }
         *       ]
         *     }
         */
        CreateSlaPolicyRequest: {
            name: string;
            /** @description Policies are tried in ascending position (ties: oldest first); the first whose conditions match applies */
            position?: number;
            /** @description At most 20 conditions per list; fields and operators: docs/api-behaviour.md, "Views and conditions". */
            conditions: {
                /** @description Every one must hold. */
                all?: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
                /** @description At least one must hold (when not empty). */
                any?: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
            };
            /**
             * Format: uuid
             * @description A business-hours calendar (GET /v1/business-hours): time counts only within its hours; null: every minute counts
             */
            business_hours_id?: string | null;
            /** @description One per priority; a ticket of a priority without a target has no clocks under this policy */
            targets: {
                /** @enum {string} */
                priority: "low" | "medium" | "high" | "urgent";
                /** @description Business minutes to the first public agent comment; null: no first-response clock */
                first_response_minutes?: number | null;
                /** @description Business minutes from a customer's reply to the agent's next public comment; null: none */
                next_response_minutes?: number | null;
                /** @description Business minutes to resolved (or closed); null: no resolution clock */
                resolution_minutes?: number | null;
                /**
                 * @description sla.warning fires this many business minutes before each due time; 0: no warning
                 * @default 0
                 */
                warning_minutes?: number;
            }[];
        };
        /**
         * @example {
         *       "name": "Billing",
         *       "description": "Invoices, refunds and payment methods"
         *     }
         */
        CreateTeamRequest: {
            name: string;
            description?: string | null;
        };
        /**
         * @example {
         *       "key": "plan",
         *       "label": "Plan",
         *       "type": "dropdown",
         *       "options": [
         *         "free",
         *         "pro",
         *         "enterprise"
         *       ]
         *     }
         */
        CreateTicketFieldRequest: {
            /** @description Lower-case identifier (a-z, 0-9, _; starting with a letter), unique in the organization; cannot be changed */
            key: string;
            label: string;
            /** @enum {string} */
            type: "text" | "number" | "date" | "checkbox" | "dropdown" | "multiselect";
            /** @description The choices of a dropdown or multiselect (required for them, refused for other types), 1 to 100, distinct */
            options?: string[];
            /** @default false */
            required?: boolean;
        };
        /**
         * @example {
         *       "customer_name": "Ada Lovelace",
         *       "customer_email": "ada@example.com",
         *       "subject": "Cannot download my invoice",
         *       "description": "The invoice page shows an error since this morning.",
         *       "priority": "high",
         *       "category": "billing"
         *     }
         */
        CreateTicketRequest: {
            customer_name: string;
            /** Format: email */
            customer_email: string;
            subject: string;
            description: string;
            /**
             * @default medium
             * @enum {string}
             */
            priority?: "low" | "medium" | "high" | "urgent";
            category?: string;
            /** Format: uuid */
            assigned_user_id?: string | null;
            /** Format: uuid */
            assigned_team_id?: string | null;
            /** Format: date-time */
            due_date?: string | null;
            /** @description The ticket's tags. Tags are 1–50 characters of a-z 0-9 _ - : . (upper-case letters are lower-cased); at most 20 per ticket; kept sorted, duplicates dropped */
            tags?: string[];
            /** @description By field key: text (a string), number, date (YYYY-MM-DD), checkbox (true/false), dropdown (one of its options), multiselect (a list of its options). On PATCH only the keys given change; null clears one. */
            custom_fields?: {
                [key: string]: (string | number | boolean | string[]) | null;
            };
        };
        /**
         * @example {
         *       "name": "Urgent tickets: tag and tell the assignee",
         *       "on": [
         *         "ticket.created",
         *         "ticket.updated"
         *       ],
         *       "conditions": {
         *         "all": [
         *           {
         *             "field": "priority",
         *             "operator": "is",
         *             "value": "urgent"
         *           }
         *         ],
         *         "any": []
         *       },
         *       "actions": [
         *         {
         *           "field": "add_tags",
         *           "value": [
         *             "vip"
         *           ]
         *         },
         *         {
         *           "field": "notify",
         *           "value": {
         *             "to": "assignee",
         *             "subject": "An urgent ticket",
         *             "body": "Please look at it."
         *           }
         *         }
         *       ]
         *     }
         */
        CreateTriggerRequest: {
            name: string;
            /** @description The event types that run it: ticket.created, ticket.updated, comment.created, comment.updated, attachment.created */
            on: string[];
            /** @description At most 20 conditions per list; fields and operators: docs/api-behaviour.md, "Views and conditions". */
            conditions: {
                /** @description Every one must hold. */
                all?: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
                /** @description At least one must hold (when not empty). */
                any?: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
            };
            /** @description 1 to 50 actions: the macro actions (each field at most once) and notify (docs/api-behaviour.md, "Triggers and automations") */
            actions: ({
                /**
                 * @description One of status, priority, assigned_user_id, assigned_team_id, category, due_date, add_tags, remove_tags, comment, or custom_fields.<key>
                 * @example status
                 */
                field: string;
                /** @description The field's new value; its type depends on the field (docs/api-behaviour.md, "Macros and actions") */
                value: string | number | boolean | null | string[] | {
                    body: string;
                    /**
                     * @description An internal note: the customer never sees it
                     * @default false
                     */
                    is_internal?: boolean;
                };
            } | {
                /** @constant */
                field: "notify";
                value: {
                    /**
                     * @description "requester" (the ticket's customer), "assignee" (its assigned user) or an email address
                     * @example assignee
                     */
                    to: string;
                    /** @description Sent as "[TKT-n] <subject>" */
                    subject: string;
                    body: string;
                };
            })[];
            /** @description Inactive ones never run (default true) */
            active?: boolean;
            /** @description Triggers run in ascending position (ties: oldest first); default: after the last */
            position?: number;
        };
        /**
         * @example {
         *       "email": "grace@example.com",
         *       "full_name": "Grace Hopper",
         *       "role": "agent"
         *     }
         */
        CreateUserRequest: {
            /**
             * Format: email
             * @description Unique in the organization, compared case-insensitively
             */
            email: string;
            full_name: string;
            /**
             * @default agent
             * @enum {string}
             */
            role?: "admin" | "agent";
            /** @default true */
            is_active?: boolean;
            /** @description Sets the password the user signs in with (POST /v1/sessions); never returned. Changing it ends the user's sessions */
            password?: string;
        };
        /**
         * @example {
         *       "name": "Open urgent tickets",
         *       "shared": true,
         *       "conditions": {
         *         "all": [
         *           {
         *             "field": "status",
         *             "operator": "in",
         *             "value": [
         *               "new",
         *               "open"
         *             ]
         *           },
         *           {
         *             "field": "priority",
         *             "operator": "is",
         *             "value": "urgent"
         *           }
         *         ],
         *         "any": []
         *       },
         *       "sort": {
         *         "by": "created_at",
         *         "order": "desc"
         *       }
         *     }
         */
        CreateViewRequest: {
            name: string;
            /** @description true: everyone of the organization with views:read sees it; false: only its owner (the caller) does */
            shared: boolean;
            /** @description At most 20 conditions per list; fields and operators: docs/api-behaviour.md, "Views and conditions". */
            conditions: {
                /** @description Every one must hold. */
                all?: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
                /** @description At least one must hold (when not empty). */
                any?: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
            };
            /** @description The order of the view's tickets; ties broken by ticket_number in the same order */
            sort?: {
                /**
                 * @description priority sorts low < medium < high < urgent; tickets without a due date (due_date) or a running SLA clock (sla_next_due_at) sort after those with one (asc)
                 * @enum {string}
                 */
                by: "created_at" | "updated_at" | "priority" | "due_date" | "ticket_number" | "sla_next_due_at";
                /** @enum {string} */
                order: "asc" | "desc";
            };
        };
        /**
         * @example {
         *       "url": "https://hooks.example.com/ticketing",
         *       "events": [
         *         "ticket.created",
         *         "comment.created"
         *       ],
         *       "description": "Chat notifications"
         *     }
         */
        CreateWebhookRequest: {
            /** @description An https:// URL on a public address (http:// and private addresses only with WEBHOOKS_ALLOW_PRIVATE=true) */
            url: string;
            /** @description The event types to deliver, or ["*"] for all of them (new types included) */
            events: ("ticket.created" | "ticket.updated" | "ticket.deleted" | "comment.created" | "comment.updated" | "comment.deleted" | "attachment.created" | "attachment.deleted" | "customer.created" | "customer.updated" | "customer.deleted" | "team.created" | "team.updated" | "team.deleted" | "team.member_added" | "team.member_removed" | "user.created" | "user.updated" | "user.deleted" | "api_key.created" | "api_key.updated" | "api_key.revoked" | "sla.warning" | "sla.breached" | "sla.fulfilled" | "*")[];
            description?: string | null;
        };
        CreatedApiKey: {
            /** Format: uuid */
            id: string;
            name: string;
            /**
             * @description Type prefix plus the first 6 characters of the secret
             * @example key_admin_a1B2c3
             */
            key_prefix: string;
            /** @enum {string} */
            role: "admin" | "readonly";
            scopes: string[];
            /** Format: uuid */
            holder_user_id: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string | null;
            /**
             * Format: date-time
             * @description Refreshed at most once a minute
             */
            last_used_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
            /** @description The plain key, shown this once: only its hash is stored (null in an answer replayed for an Idempotency-Key) */
            key: string | null;
        };
        CreatedWebhook: {
            /** Format: uuid */
            id: string;
            /** @description Stored in normalized form (as the WHATWG URL parser writes it) */
            url: string;
            description: string | null;
            events: string[];
            /**
             * @description `active`: delivering; `paused`: set by you, events wait and are delivered in order once active again; `disabled`: set by the service after a delivery failed through every retry (see disabled_reason); make it active to resume
             * @enum {string}
             */
            status: "active" | "paused" | "disabled";
            /** Format: date-time */
            disabled_at: string | null;
            disabled_reason: string | null;
            /**
             * Format: date-time
             * @description After a secret rotation: until then deliveries are signed with the previous secret too
             */
            previous_secret_expires_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /**
             * @description The signing secret (whsec_ + base64), shown only in this answer: store it to verify deliveries (null in an answer replayed for an Idempotency-Key)
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw7zgz6ZnTMAI=
             */
            secret: string | null;
        };
        /**
         * @example {
         *       "id": "3d2c1b0a-9f8e-4d7c-b6a5-4f3e2d1c0b9a",
         *       "name": "Ada Lovelace",
         *       "email": "ada@example.com",
         *       "company": "Analytical Engines Ltd",
         *       "department": "Finance",
         *       "title": "Head of Accounts",
         *       "customer_tier": "tier_2",
         *       "contact_number": "+44 20 7946 0958",
         *       "pronoun": "she/her",
         *       "location_country": "United Kingdom",
         *       "location_city": "London",
         *       "location_state": null,
         *       "location_zip": "SW1A 1AA",
         *       "location_address": "12 Example Street",
         *       "region": "emea",
         *       "timezone": "Europe/London",
         *       "account_value": "1500.00",
         *       "has_premium_support": true,
         *       "is_vip": false,
         *       "social_linkedin": "https://www.linkedin.com/in/ada-example",
         *       "social_website": "https://example.com",
         *       "social_github": null,
         *       "notes": "Prefers email over phone.",
         *       "created_at": "2026-01-12T08:30:00.000Z",
         *       "updated_at": "2026-01-31T09:15:02.123Z",
         *       "email_status": "ok"
         *     }
         */
        Customer: {
            /** Format: uuid */
            id: string;
            name: string;
            email: string;
            company: string | null;
            department: string | null;
            title: string | null;
            /** @enum {string|null} */
            customer_tier: "tier_1" | "tier_2" | "tier_3" | "tier_4" | null;
            contact_number: string | null;
            pronoun: string | null;
            location_country: string | null;
            location_city: string | null;
            location_state: string | null;
            location_zip: string | null;
            location_address: string | null;
            /** @enum {string|null} */
            region: "amer" | "apac" | "emea" | "latam" | "asean" | null;
            timezone: string | null;
            /**
             * @description Fixed-point decimal with 2 places
             * @example 1500.00
             */
            account_value: string | null;
            has_premium_support: boolean;
            is_vip: boolean;
            social_linkedin: string | null;
            social_website: string | null;
            social_github: string | null;
            notes: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /**
             * @description `bouncing`: mail to the address bounced hard 3 times in a row; no mail is sent to it until the address changes
             * @enum {string}
             */
            email_status: "ok" | "bouncing";
        };
        /** @description Figures for one organization */
        Dashboard: {
            /**
             * Format: date-time
             * @description The instant every time window is measured back from
             */
            generated_at: string;
            tickets: {
                total: number;
                /** @description One entry per status, 0 when there is none */
                by_status: {
                    new: number;
                    open: number;
                    pending: number;
                    resolved: number;
                    closed: number;
                };
                /** @description One entry per priority, 0 when there is none */
                by_priority: {
                    low: number;
                    medium: number;
                    high: number;
                    urgent: number;
                };
            };
            /** @description Tickets with status new, open or pending */
            open: {
                total: number;
                /** @description One entry per priority, 0 when there is none */
                by_priority: {
                    low: number;
                    medium: number;
                    high: number;
                    urgent: number;
                };
                /** @description Open tickets with no agent (assigned_user_id null) */
                unassigned: number;
                /** @description Open tickets with no team (assigned_team_id null) */
                without_team: number;
                /** @description Open tickets whose due_date is before generated_at */
                overdue: number;
            };
            created: {
                /** @description Tickets created in the 24 hours before generated_at */
                last_24_hours: number;
                /** @description Tickets created in the 7 days before generated_at */
                last_7_days: number;
            };
            resolved: {
                /** @description Tickets whose resolved_at falls in the 24 hours before generated_at */
                last_24_hours: number;
                /** @description Tickets whose resolved_at falls in the 7 days before generated_at */
                last_7_days: number;
            };
            resolution_last_30_days: {
                /** @description Tickets whose resolved_at is in the 30 days before generated_at */
                resolved: number;
                /** @description Median of resolved_at - created_at over those tickets, in seconds (millisecond precision); null when there are none */
                median_seconds: number | null;
            };
            /** @description Every team of the organization, most open tickets first, then by name */
            open_by_team: components["schemas"]["TeamLoad"][];
            /** @description Every active user, and any inactive one still holding open tickets; most open tickets first, then by name */
            open_by_agent: components["schemas"]["AgentLoad"][];
        };
        DownloadLink: {
            /** @description Fetch without Authorization; valid until expires_at */
            signed_url: string;
            /**
             * Format: date-time
             * @description One hour after issue
             */
            expires_at: string;
        };
        /**
         * @description Every error response has this shape
         * @example {
         *       "detail": "Insufficient permissions: requires tickets:write"
         *     }
         * @example {
         *       "detail": "Validation failed: body.priority must be one of: low, medium, high, urgent",
         *       "errors": [
         *         {
         *           "field": "body.priority",
         *           "message": "must be one of: low, medium, high, urgent"
         *         }
         *       ]
         *     }
         */
        Error: {
            /** @description What went wrong, in one sentence */
            detail: string;
            /** @description Present on 422: one entry per invalid field, such as body.priority */
            errors?: {
                field: string;
                message: string;
            }[];
            /** @description Present on 5xx: the request's id (also its X-Request-Id header), to quote when reporting the failure */
            request_id?: string;
        };
        /**
         * @example {
         *       "id": "0c4f3f0e-2b57-4d8e-9a55-3f0f5b2a9d11",
         *       "cursor": "1047",
         *       "type": "ticket.updated",
         *       "occurred_at": "2026-01-31T10:02:47.512Z",
         *       "actor": {
         *         "type": "api_key",
         *         "api_key_id": "5d0c9a1e-7b2f-4c1d-9e8a-3f6b2c1d0e9f",
         *         "user_id": null,
         *         "customer_id": null
         *       },
         *       "resource_type": "ticket",
         *       "resource_id": "6f1c2a3e-8d4b-4c5a-9e7f-0a1b2c3d4e5f",
         *       "ticket_id": "6f1c2a3e-8d4b-4c5a-9e7f-0a1b2c3d4e5f",
         *       "object": {
         *         "id": "6f1c2a3e-8d4b-4c5a-9e7f-0a1b2c3d4e5f",
         *         "ticket_number": 42,
         *         "ticket_display_id": "TKT-42",
         *         "customer_id": "3d2c1b0a-9f8e-4d7c-b6a5-4f3e2d1c0b9a",
         *         "subject": "Invoice shows the wrong total",
         *         "description": "The March invoice adds VAT twice.",
         *         "status": "open",
         *         "priority": "high",
         *         "category": "billing",
         *         "assigned_user_id": null,
         *         "assigned_team_id": null,
         *         "due_date": null,
         *         "created_at": "2026-01-31T09:15:02.123Z",
         *         "updated_at": "2026-01-31T10:02:47.512Z",
         *         "resolved_at": null,
         *         "closed_at": null,
         *         "tags": [
         *           "billing",
         *           "vat"
         *         ],
         *         "custom_fields": {
         *           "plan": "pro",
         *           "seats": 12
         *         },
         *         "channel": "api",
         *         "email": null,
         *         "sla": {
         *           "policy_id": "2b7d4c1e-5a3f-4e2d-9c8b-7a6f5e4d3c2b",
         *           "first_response_due_at": null,
         *           "next_response_due_at": null,
         *           "resolution_due_at": "2026-02-02T09:15:02.123Z",
         *           "paused": false,
         *           "breaches": []
         *         }
         *       },
         *       "changes": {
         *         "status": {
         *           "old": "new",
         *           "new": "open"
         *         }
         *       }
         *     }
         */
        Event: {
            /**
             * Format: uuid
             * @description Unique per event; also the `webhook-id` of its webhook deliveries
             */
            id: string;
            /** @description The event's place in the change feed: pass it as `after` to read what follows it */
            cursor: string;
            /** @enum {string} */
            type: "ticket.created" | "ticket.updated" | "ticket.deleted" | "comment.created" | "comment.updated" | "comment.deleted" | "attachment.created" | "attachment.deleted" | "customer.created" | "customer.updated" | "customer.deleted" | "team.created" | "team.updated" | "team.deleted" | "team.member_added" | "team.member_removed" | "user.created" | "user.updated" | "user.deleted" | "api_key.created" | "api_key.updated" | "api_key.revoked" | "sla.warning" | "sla.breached" | "sla.fulfilled";
            /**
             * Format: date-time
             * @description When the change was made: the record's own created_at or updated_at where it has one
             */
            occurred_at: string;
            actor: components["schemas"]["EventActor"];
            /** @enum {string} */
            resource_type: "ticket" | "comment" | "attachment" | "customer" | "team" | "user" | "api_key";
            /**
             * Format: uuid
             * @description The record that changed (for team membership events, the team)
             */
            resource_id: string;
            /**
             * Format: uuid
             * @description The ticket the record belongs to (tickets, comments, attachments), else null
             */
            ticket_id: string | null;
            /** @description The record as the API shows it: after the change, or as it was for a deletion; a ticket never with its tracking_token. Membership events carry `{team_id, user_id}`. */
            object: {
                [key: string]: unknown;
            };
            /** @description Updates only: each changed field with its old and new value, as the API shows them (updated_at left out); a changed tracking_token is `{"changed": true}`, without values */
            changes: {
                [key: string]: {
                    old: unknown;
                    new: unknown;
                } | {
                    /** @constant */
                    changed: true;
                };
            } | null;
        };
        /** @description Who made the change */
        EventActor: {
            /**
             * @description `api_key`: a request with an API key; `user`: a signed-in agent (a session of the console); `customer`: the customer through the portal; `system`: the command line or the service itself; `trigger`, `automation`: one of the organization's triggers or automations (docs/api-behaviour.md#triggers-and-automations)
             * @enum {string}
             */
            type: "api_key" | "user" | "customer" | "system" | "trigger" | "automation";
            /**
             * Format: uuid
             * @description The key that made the change (type api_key)
             */
            api_key_id: string | null;
            /**
             * Format: uuid
             * @description The key's holder, when it has one (type api_key), or the signed-in user (type user)
             */
            user_id: string | null;
            /**
             * Format: uuid
             * @description The customer who made the change through the portal (type customer)
             */
            customer_id: string | null;
            /**
             * Format: uuid
             * @description The trigger that made the change (type trigger only)
             */
            trigger_id?: string;
            /**
             * Format: uuid
             * @description The automation that made the change (type automation only)
             */
            automation_id?: string;
        };
        EventFeedPage: {
            /** @description In commit order, oldest first */
            events: components["schemas"]["Event"][];
            /** @description Pass as `after` for the next page; store it to resume later. Present even when `events` is empty. */
            next_cursor: string;
            /** @description True when more events follow already; false when the feed is read to its end for now */
            has_more: boolean;
        };
        Job: {
            /** Format: uuid */
            id: string;
            /** @constant */
            kind: "ticket_bulk";
            /**
             * @description queued: nothing done yet; running; completed: every ticket done (some may have failed); failed: every ticket failed
             * @enum {string}
             */
            status: "queued" | "running" | "completed" | "failed";
            /** @description Tickets in the job */
            total: number;
            /** @description Tickets done so far: applied or failed */
            done: number;
            /** @description Tickets that failed (counted in done) */
            failed: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            started_at: string | null;
            /** Format: date-time */
            finished_at: string | null;
            /** @description One per ticket, in the order given (a view: its order) */
            results: {
                /** Format: uuid */
                ticket_id: string;
                /**
                 * @description pending: not yet done; applied: the actions changed the ticket (in one transaction, with its events); failed: see detail
                 * @enum {string}
                 */
                status: "pending" | "applied" | "failed";
                /** @description Why the ticket failed */
                detail?: string;
            }[];
        };
        JobAccepted: {
            /** Format: uuid */
            job_id: string;
        };
        JobSummary: {
            /** Format: uuid */
            id: string;
            /** @constant */
            kind: "ticket_bulk";
            /**
             * @description queued: nothing done yet; running; completed: every ticket done (some may have failed); failed: every ticket failed
             * @enum {string}
             */
            status: "queued" | "running" | "completed" | "failed";
            /** @description Tickets in the job */
            total: number;
            /** @description Tickets done so far: applied or failed */
            done: number;
            /** @description Tickets that failed (counted in done) */
            failed: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            started_at: string | null;
            /** Format: date-time */
            finished_at: string | null;
        };
        KeyCheck: {
            /** @example ok */
            status: string;
            /**
             * @description `API key is valid`, or `Session is valid` for a signed-in session
             * @example API key is valid
             */
            message: string;
            /**
             * @description The key's prefix; null for a session
             * @example key_admin_a1B2c3
             */
            key_prefix: string | null;
            scopes: string[];
            /**
             * Format: date-time
             * @description When the key expires (null: never), or when the session does if left idle
             */
            expires_at: string | null;
        };
        /** @description The process is serving requests */
        Liveness: {
            /** @constant */
            status: "ok";
        };
        Macro: {
            /** Format: uuid */
            id: string;
            name: string;
            description: string | null;
            /** @description As checked and stored: tags lower-case and sorted, times in UTC, is_internal always given */
            actions: {
                /**
                 * @description One of status, priority, assigned_user_id, assigned_team_id, category, due_date, add_tags, remove_tags, comment, or custom_fields.<key>
                 * @example status
                 */
                field: string;
                /** @description The field's new value; its type depends on the field (docs/api-behaviour.md, "Macros and actions") */
                value: string | number | boolean | null | string[] | {
                    body: string;
                    /**
                     * @description An internal note: the customer never sees it
                     * @default false
                     */
                    is_internal?: boolean;
                };
            }[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * @example {
         *       "outcome": "created",
         *       "ticket_id": "6f1c2a3e-8d4b-4c5a-9e7f-0a1b2c3d4e5f",
         *       "comment_id": null,
         *       "reason": null
         *     }
         */
        MailIntakeResult: {
            /**
             * @description `created`: a new ticket; `appended`: a comment on the ticket it continues; `duplicate`: taken before (by Message-ID, or its bytes when it has none); `ignored`: sent from one of the organization's own mailboxes; `rejected`: it cannot be used (see reason). The raw message is kept in every case.
             * @enum {string}
             */
            outcome: "created" | "appended" | "duplicate" | "ignored" | "rejected";
            /** Format: uuid */
            ticket_id: string | null;
            /**
             * Format: uuid
             * @description Null when the message opened the ticket (it is its description)
             */
            comment_id: string | null;
            /** @description Why it was ignored or rejected */
            reason: string | null;
        };
        /**
         * @example {
         *       "id": "5d0a3c2e-8f1b-4c7d-9e2a-1b3c4d5e6f70",
         *       "address": "support@acme.test",
         *       "name": "Acme Support",
         *       "auto_reply": true,
         *       "is_default": true,
         *       "inbound": {
         *         "type": "imap",
         *         "host": "imap.acme.test",
         *         "port": 993,
         *         "security": "tls",
         *         "username": "support@acme.test",
         *         "folder": "INBOX"
         *       },
         *       "outbound": {
         *         "host": "smtp.acme.test",
         *         "port": 587,
         *         "security": "starttls",
         *         "username": "support@acme.test"
         *       },
         *       "state": "active",
         *       "last_error": null,
         *       "last_checked_at": "2026-01-31T09:20:00.000Z",
         *       "created_at": "2026-01-31T09:15:02.123Z",
         *       "updated_at": "2026-01-31T09:15:02.123Z"
         *     }
         */
        Mailbox: {
            /** Format: uuid */
            id: string;
            address: string;
            name: string;
            /** @description Acknowledge a ticket opened by mail with a reply naming its display id */
            auto_reply: boolean;
            /** @description At most one per organization: tickets created through the API are answered through it */
            is_default: boolean;
            /** @description How mail comes in; imap shows host, port, security, username and folder, never the password */
            inbound: {
                /**
                 * @description `imap`: polled (IDLE where the server offers it); `smtp`: mail for `address` arrives at the service's own SMTP listener (MAIL_SMTP_PORT); `none`: no intake but POST /v1/mailboxes/{id}/messages
                 * @enum {string}
                 */
                type: "imap" | "smtp" | "none";
                /** @description A host name or IP address on a public address (private ones only with MAIL_ALLOW_PRIVATE=true) */
                host?: string;
                port?: number;
                /**
                 * @description `tls`: TLS from the first byte (IMAPS 993, SMTPS 465); `starttls`: upgraded after connecting; `none`: plain text
                 * @enum {string}
                 */
                security?: "tls" | "starttls" | "none";
                username?: string;
                folder?: string;
            };
            outbound: {
                /** @description A host name or IP address on a public address (private ones only with MAIL_ALLOW_PRIVATE=true) */
                host: string;
                port: number;
                /**
                 * @description `tls`: TLS from the first byte (IMAPS 993, SMTPS 465); `starttls`: upgraded after connecting; `none`: plain text
                 * @enum {string}
                 */
                security: "tls" | "starttls" | "none";
                username?: string;
            } | null;
            /**
             * @description `active`; `failing`: the mail server refused or could not be reached (see last_error), retried with backoff; `paused`: set by you, no intake
             * @enum {string}
             */
            state: "active" | "failing" | "paused";
            /** @description The mail server's own words at the last failure */
            last_error: string | null;
            /**
             * Format: date-time
             * @description When the mailbox was last read (imap)
             */
            last_checked_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        Message: {
            /** @example User added to team */
            message: string;
        };
        /** @description The process cannot serve API requests now; `checks` says which dependency failed */
        NotReady: {
            /** @constant */
            status: "unavailable";
            /** @example Not ready: store is unavailable */
            detail: string;
            checks: components["schemas"]["ReadinessChecks"];
        };
        PortalAttachment: {
            /** Format: uuid */
            id: string;
            filename: string;
            content_type: string;
            size_bytes: number;
            /** Format: date-time */
            created_at: string;
            /** @description Opens the file: redirects (303) to a freshly signed download address; works as long as the token does */
            download_url: string;
        };
        /** @description A public comment of the thread. Internal notes are never shown, nor agent emails. */
        PortalComment: {
            /** Format: uuid */
            id: string;
            body: string;
            /**
             * @description customer: written through the portal
             * @enum {string}
             */
            author_type: "customer" | "agent";
            /** @description The agent's full name; null for the customer's own replies and for agents not on record */
            author_name: string | null;
            /** @description The ticket's files this comment carries (see the ticket's `attachments`) */
            attachment_ids: string[];
            /** Format: date-time */
            created_at: string;
        };
        /** @description What the holder of a tracking token may see of a ticket */
        PortalTicket: {
            ticket_number: number;
            /** @example TKT-42 */
            ticket_display_id: string;
            subject: string;
            description: string;
            /** @enum {string} */
            status: "new" | "open" | "pending" | "resolved" | "closed";
            /** @enum {string} */
            priority: "low" | "medium" | "high" | "urgent";
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description The last activity the customer can see: the ticket's own last change, its newest public message or its newest file, whichever is latest
             */
            updated_at: string;
            /** Format: date-time */
            resolved_at: string | null;
            /** Format: date-time */
            closed_at: string | null;
            /** @description False once the ticket is closed */
            accepts_replies: boolean;
            /** @description Public comments in the thread */
            comment_count: number;
            /** @description The latest 500 public comments, oldest first; GET .../comments pages through all of them */
            comments: components["schemas"]["PortalComment"][];
            /** @description The first 500 attachments, oldest first */
            attachments: components["schemas"]["PortalAttachment"][];
        };
        /**
         * Format: binary
         * @description The raw message (RFC 5322), at most 40 MiB
         */
        PostMailboxMessageRequest: Blob;
        PostPortalReplyRequest: {
            body?: string;
        };
        /** @description The process can serve API requests */
        Readiness: {
            /**
             * @description ready: every check passed; degraded: serving, but Redis is unavailable so rate limits are not enforced
             * @enum {string}
             */
            status: "ready" | "degraded";
            checks: components["schemas"]["ReadinessChecks"];
        };
        ReadinessChecks: {
            /**
             * @description Outcome of one dependency check
             * @enum {string}
             */
            store: "ok" | "unavailable";
            /**
             * @description Outcome of one dependency check
             * @enum {string}
             */
            redis?: "ok" | "unavailable";
        };
        Session: {
            user: components["schemas"]["User"];
            /**
             * Format: date-time
             * @description When the session ends if left idle (12 hours after its last use; never later than 7 days after sign-in)
             */
            expires_at: string;
            /** @description Send it as the X-CSRF-Token header with every request that changes something (POST, PUT, PATCH, DELETE) made with the session cookie */
            csrf_token: string;
        };
        SlaPolicy: {
            /** Format: uuid */
            id: string;
            name: string;
            position: number;
            conditions: {
                all: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
                any: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
            };
            /** Format: uuid */
            business_hours_id: string | null;
            targets: {
                /** @enum {string} */
                priority: "low" | "medium" | "high" | "urgent";
                first_response_minutes: number | null;
                next_response_minutes: number | null;
                resolution_minutes: number | null;
                warning_minutes: number;
            }[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * @example {
         *       "tag": "billing",
         *       "ticket_count": 42
         *     }
         */
        TagCount: {
            tag: string;
            /** @description How many tickets of the organization carry the tag */
            ticket_count: number;
        };
        Team: {
            /** Format: uuid */
            id: string;
            name: string;
            description: string | null;
            /** @description In the order they joined the team */
            members: components["schemas"]["TeamMember"][];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        TeamLoad: {
            /** Format: uuid */
            id: string;
            name: string;
            open: number;
        };
        TeamMember: {
            /** Format: uuid */
            id: string;
            email: string;
            full_name: string;
        };
        TeamSummary: {
            /** Format: uuid */
            id: string;
            name: string;
            description: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * @example {
         *       "id": "6f1c2a3e-8d4b-4c5a-9e7f-0a1b2c3d4e5f",
         *       "ticket_number": 42,
         *       "tracking_token": "b7e3f1a2-4c5d-4e6f-8a9b-0c1d2e3f4a5b",
         *       "ticket_display_id": "TKT-42",
         *       "customer_id": "3d2c1b0a-9f8e-4d7c-b6a5-4f3e2d1c0b9a",
         *       "subject": "Invoice shows the wrong total",
         *       "description": "The March invoice adds VAT twice.",
         *       "status": "open",
         *       "priority": "high",
         *       "category": "billing",
         *       "assigned_user_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
         *       "assigned_team_id": null,
         *       "due_date": "2026-02-06T17:00:00.000Z",
         *       "created_at": "2026-01-31T09:15:02.123Z",
         *       "updated_at": "2026-01-31T10:02:47.512Z",
         *       "resolved_at": null,
         *       "closed_at": null,
         *       "tags": [
         *         "billing",
         *         "vat"
         *       ],
         *       "custom_fields": {
         *         "plan": "pro",
         *         "seats": 12
         *       },
         *       "channel": "api",
         *       "email": null,
         *       "sla": {
         *         "policy_id": "2b7d4c1e-5a3f-4e2d-9c8b-7a6f5e4d3c2b",
         *         "first_response_due_at": null,
         *         "next_response_due_at": null,
         *         "resolution_due_at": "2026-02-02T09:15:02.123Z",
         *         "paused": false,
         *         "breaches": []
         *       }
         *     }
         */
        Ticket: {
            /** Format: uuid */
            id: string;
            ticket_number: number;
            /**
             * Format: uuid
             * @description Lets the customer reach the ticket through self-service: a credential, shown only to keys holding tickets:write (null for others, and in an answer replayed for an Idempotency-Key)
             */
            tracking_token: string | null;
            /** @example TKT-42 */
            ticket_display_id: string;
            /** Format: uuid */
            customer_id: string;
            subject: string;
            description: string;
            /** @enum {string} */
            status: "new" | "open" | "pending" | "resolved" | "closed";
            /** @enum {string} */
            priority: "low" | "medium" | "high" | "urgent";
            category: string | null;
            /** Format: uuid */
            assigned_user_id: string | null;
            /** Format: uuid */
            assigned_team_id: string | null;
            /** Format: date-time */
            due_date: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            resolved_at: string | null;
            /** Format: date-time */
            closed_at: string | null;
            /** @description Sorted, lower-case, no duplicates */
            tags: string[];
            /**
             * @description By field key; a field without a value is absent
             * @example {
             *       "plan": "pro",
             *       "seats": 12
             *     }
             */
            custom_fields: {
                [key: string]: string | number | boolean | string[];
            };
            /**
             * @description `api`: through the API; `portal`: the customer through self-service; `email`: by mail
             * @enum {string}
             */
            channel: "api" | "portal" | "email";
            /** @description The mail it came by; its original is downloadable at the `raw` address */
            email: {
                /** @description Its Message-ID, without the angle brackets; null when it had none */
                message_id: string | null;
                /** @description The sender, lower-cased */
                from: string;
                /** @description Addresses, lower-cased */
                to: string[];
                /** @description Addresses, lower-cased */
                cc: string[];
                /** @description Sent by a machine (an auto-reply, a list, a bounce): kept, but it never reopens a ticket nor gets an acknowledgement */
                automated: boolean;
            } | null;
            /** @description The ticket's SLA clocks (docs/api-behaviour.md, SLA policies); null when no policy applies */
            sla: {
                /**
                 * Format: uuid
                 * @description The SLA policy that applies (the first whose conditions the ticket met at its last change)
                 */
                policy_id: string;
                /**
                 * Format: date-time
                 * @description Null when fulfilled, paused, or without a target
                 */
                first_response_due_at: string | null;
                /**
                 * Format: date-time
                 * @description Running from a customer's reply until the agent's next public comment
                 */
                next_response_due_at: string | null;
                /** Format: date-time */
                resolution_due_at: string | null;
                /** @description True while no clock runs: the ticket is pending (or resolved, closed) */
                paused: boolean;
                breaches: {
                    /** @enum {string} */
                    metric: "first_response" | "next_response" | "resolution";
                    /** Format: date-time */
                    due_at: string;
                    /** Format: date-time */
                    breached_at: string;
                }[];
            } | null;
        };
        /**
         * @example {
         *       "id": "1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
         *       "key": "plan",
         *       "label": "Plan",
         *       "type": "dropdown",
         *       "options": [
         *         "free",
         *         "pro",
         *         "enterprise"
         *       ],
         *       "required": false,
         *       "created_at": "2026-01-31T09:15:02.123Z",
         *       "updated_at": "2026-01-31T09:15:02.123Z"
         *     }
         */
        TicketField: {
            /** Format: uuid */
            id: string;
            key: string;
            label: string;
            /** @enum {string} */
            type: "text" | "number" | "date" | "checkbox" | "dropdown" | "multiselect";
            /** @description The choices (dropdown, multiselect); [] for other types */
            options: string[];
            /** @description A ticket must be created with a value */
            required: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        Trigger: {
            /** Format: uuid */
            id: string;
            name: string;
            on: string[];
            conditions: {
                all: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
                any: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
            };
            actions: ({
                /**
                 * @description One of status, priority, assigned_user_id, assigned_team_id, category, due_date, add_tags, remove_tags, comment, or custom_fields.<key>
                 * @example status
                 */
                field: string;
                /** @description The field's new value; its type depends on the field (docs/api-behaviour.md, "Macros and actions") */
                value: string | number | boolean | null | string[] | {
                    body: string;
                    /**
                     * @description An internal note: the customer never sees it
                     * @default false
                     */
                    is_internal?: boolean;
                };
            } | {
                /** @constant */
                field: "notify";
                value: {
                    /**
                     * @description "requester" (the ticket's customer), "assignee" (its assigned user) or an email address
                     * @example assignee
                     */
                    to: string;
                    /** @description Sent as "[TKT-n] <subject>" */
                    subject: string;
                    body: string;
                };
            })[];
            active: boolean;
            position: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * @example {
         *       "name": "Reporting dashboard (finance)"
         *     }
         */
        UpdateApiKeyRequest: {
            /** @description A label for people; grants nothing */
            name?: string;
            /** @description resource:action scopes */
            scopes?: ("tickets:read" | "tickets:write" | "tickets:delete" | "comments:read" | "comments:write" | "comments:delete" | "attachments:read" | "attachments:write" | "attachments:delete" | "customers:read" | "customers:write" | "customers:delete" | "teams:read" | "teams:write" | "teams:delete" | "users:read" | "users:write" | "users:delete" | "dashboard:read" | "events:read" | "webhooks:read" | "webhooks:write" | "webhooks:delete" | "fields:read" | "fields:write" | "fields:delete" | "mailboxes:read" | "mailboxes:write" | "mailboxes:delete" | "views:read" | "views:write" | "views:delete" | "macros:read" | "macros:write" | "macros:delete" | "automations:read" | "automations:write" | "automations:delete" | "sla:read" | "sla:write" | "sla:delete")[];
            /**
             * Format: uuid
             * @description The user (agent) the key is issued to; must be a user of the organization
             */
            holder_user_id?: string | null;
            /**
             * Format: date-time
             * @description Must be in the future; null never expires (admin keys only)
             */
            expires_at?: string | null;
        };
        /**
         * @example {
         *       "active": false
         *     }
         */
        UpdateAutomationRequest: {
            name?: string;
            /** @description At most 20 conditions per list; fields and operators: docs/api-behaviour.md, "Views and conditions". */
            conditions?: {
                /** @description Every one must hold. */
                all?: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
                /** @description At least one must hold (when not empty). */
                any?: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
            };
            /** @description 1 to 50 actions: the macro actions (each field at most once) and notify (docs/api-behaviour.md, "Triggers and automations") */
            actions?: ({
                /**
                 * @description One of status, priority, assigned_user_id, assigned_team_id, category, due_date, add_tags, remove_tags, comment, or custom_fields.<key>
                 * @example status
                 */
                field: string;
                /** @description The field's new value; its type depends on the field (docs/api-behaviour.md, "Macros and actions") */
                value: string | number | boolean | null | string[] | {
                    body: string;
                    /**
                     * @description An internal note: the customer never sees it
                     * @default false
                     */
                    is_internal?: boolean;
                };
            } | {
                /** @constant */
                field: "notify";
                value: {
                    /**
                     * @description "requester" (the ticket's customer), "assignee" (its assigned user) or an email address
                     * @example assignee
                     */
                    to: string;
                    /** @description Sent as "[TKT-n] <subject>" */
                    subject: string;
                    body: string;
                };
            })[];
            /** @description Inactive ones never run (default true) */
            active?: boolean;
        };
        /**
         * @example {
         *       "holidays": [
         *         {
         *           "date": "2026-12-26",
         *           "name": "Boxing Day"
         *         }
         *       ]
         *     }
         */
        UpdateBusinessHoursRequest: {
            name?: string;
            /** @description An IANA time zone name, e.g. Europe/Berlin; hours and holidays are local to it, DST included */
            time_zone?: string;
            /** @description Business hours, [start, end) per weekday; several a day allowed, not overlapping; at least one. At most 50. */
            weekly?: {
                /** @enum {string} */
                day: "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
                /** @description HH:MM, local wall-clock time */
                start: string;
                /** @description HH:MM after start; 24:00 is the end of the day */
                end: string;
            }[];
            /** @description Distinct dates, at most 400 */
            holidays?: {
                /** @description A local date (YYYY-MM-DD) in the calendar's time zone: no business hours that day */
                date: string;
                name?: string;
            }[];
        };
        /**
         * @example {
         *       "body": "Thanks for the report: a fix is on its way."
         *     }
         */
        UpdateCommentRequest: {
            body?: string;
            /** @description An internal note: the customer never sees it */
            is_internal?: boolean;
        };
        /**
         * @example {
         *       "company": "Difference Engines plc",
         *       "is_vip": true
         *     }
         */
        UpdateCustomerRequest: {
            name?: string;
            /**
             * Format: email
             * @description Unique in the organization, compared case-insensitively
             */
            email?: string;
            company?: string | null;
            department?: string | null;
            title?: string | null;
            /** @enum {string|null} */
            customer_tier?: "tier_1" | "tier_2" | "tier_3" | "tier_4" | null;
            contact_number?: string | null;
            pronoun?: string | null;
            location_country?: string | null;
            location_city?: string | null;
            location_state?: string | null;
            location_zip?: string | null;
            location_address?: string | null;
            /** @enum {string|null} */
            region?: "amer" | "apac" | "emea" | "latam" | "asean" | null;
            /**
             * Format: iana-timezone
             * @example Europe/Paris
             */
            timezone?: string | null;
            /**
             * Format: decimal
             * @description Non-negative, at most 13 integer digits and 2 decimal places, as a number or a string ("1500.50"); null clears it
             * @example 1500.50
             */
            account_value?: number | string | null;
            /** Format: http-url */
            social_linkedin?: string | null;
            /** Format: http-url */
            social_website?: string | null;
            /** Format: http-url */
            social_github?: string | null;
            notes?: string | null;
            has_premium_support?: boolean;
            is_vip?: boolean;
        };
        /**
         * @example {
         *       "name": "Ask for a screenshot (pending)"
         *     }
         */
        UpdateMacroRequest: {
            name?: string;
            /** @description What the macro is for, shown to agents choosing one */
            description?: string | null;
            /**
             * @description 1 to 50 actions, each field at most once, applied together to one ticket in one transaction
             * @example [
             *       {
             *         "field": "status",
             *         "value": "pending"
             *       },
             *       {
             *         "field": "assigned_user_id",
             *         "value": "me"
             *       },
             *       {
             *         "field": "add_tags",
             *         "value": [
             *           "waiting"
             *         ]
             *       },
             *       {
             *         "field": "comment",
             *         "value": {
             *           "body": "We are looking into it.",
             *           "is_internal": false
             *         }
             *       }
             *     ]
             */
            actions?: {
                /**
                 * @description One of status, priority, assigned_user_id, assigned_team_id, category, due_date, add_tags, remove_tags, comment, or custom_fields.<key>
                 * @example status
                 */
                field: string;
                /** @description The field's new value; its type depends on the field (docs/api-behaviour.md, "Macros and actions") */
                value: string | number | boolean | null | string[] | {
                    body: string;
                    /**
                     * @description An internal note: the customer never sees it
                     * @default false
                     */
                    is_internal?: boolean;
                };
            }[];
        };
        /**
         * @example {
         *       "state": "paused"
         *     }
         */
        UpdateMailboxRequest: {
            /**
             * Format: email
             * @description Stored lower-cased; unique within the organization
             */
            address?: string;
            /** @description Shown as the display name of mail sent from the mailbox */
            name?: string;
            auto_reply?: boolean;
            /** @description true makes it the default (the previous default stops being one); false leaves the organization without one */
            is_default?: boolean;
            /** @description Merged into the current settings: give only what changes */
            inbound?: {
                /**
                 * @description `imap`: polled (IDLE where the server offers it); `smtp`: mail for `address` arrives at the service's own SMTP listener (MAIL_SMTP_PORT); `none`: no intake but POST /v1/mailboxes/{id}/messages
                 * @enum {string}
                 */
                type?: "imap" | "smtp" | "none";
                /** @description A host name or IP address on a public address (private ones only with MAIL_ALLOW_PRIVATE=true) */
                host?: string;
                port?: number;
                /**
                 * @description `tls`: TLS from the first byte (IMAPS 993, SMTPS 465); `starttls`: upgraded after connecting; `none`: plain text
                 * @enum {string}
                 */
                security?: "tls" | "starttls" | "none";
                username?: string;
                /** @description Write-only: never shown in an answer */
                password?: string;
                folder?: string;
            };
            /** @description Merged into the current server settings (a full object when there are none yet); null for SMTP_URL */
            outbound?: {
                /** @description A host name or IP address on a public address (private ones only with MAIL_ALLOW_PRIVATE=true) */
                host?: string;
                port?: number;
                /**
                 * @description `tls`: TLS from the first byte (IMAPS 993, SMTPS 465); `starttls`: upgraded after connecting; `none`: plain text
                 * @enum {string}
                 */
                security?: "tls" | "starttls" | "none";
                username?: string | null;
                /** @description Write-only: never shown in an answer */
                password?: string | null;
            } | null;
            /**
             * @description Pause intake, or resume it (also of a failing mailbox: tried again at once)
             * @enum {string}
             */
            state?: "active" | "paused";
        };
        /**
         * @example {
         *       "position": 1
         *     }
         */
        UpdateSlaPolicyRequest: {
            name?: string;
            /** @description Policies are tried in ascending position (ties: oldest first); the first whose conditions match applies */
            position?: number;
            /** @description At most 20 conditions per list; fields and operators: docs/api-behaviour.md, "Views and conditions". */
            conditions?: {
                /** @description Every one must hold. */
                all?: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
                /** @description At least one must hold (when not empty). */
                any?: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
            };
            /**
             * Format: uuid
             * @description A business-hours calendar (GET /v1/business-hours): time counts only within its hours; null: every minute counts
             */
            business_hours_id?: string | null;
            /** @description One per priority; a ticket of a priority without a target has no clocks under this policy */
            targets?: {
                /** @enum {string} */
                priority: "low" | "medium" | "high" | "urgent";
                /** @description Business minutes to the first public agent comment; null: no first-response clock */
                first_response_minutes?: number | null;
                /** @description Business minutes from a customer's reply to the agent's next public comment; null: none */
                next_response_minutes?: number | null;
                /** @description Business minutes to resolved (or closed); null: no resolution clock */
                resolution_minutes?: number | null;
                /**
                 * @description sla.warning fires this many business minutes before each due time; 0: no warning
                 * @default 0
                 */
                warning_minutes?: number;
            }[];
        };
        /**
         * @example {
         *       "description": "Invoices, refunds, payment methods and VAT"
         *     }
         */
        UpdateTeamRequest: {
            name?: string;
            description?: string | null;
        };
        /**
         * @description key and type cannot be changed
         * @example {
         *       "label": "Customer plan"
         *     }
         */
        UpdateTicketFieldRequest: {
            label?: string;
            /** @description The choices of a dropdown or multiselect (required for them, refused for other types), 1 to 100, distinct */
            options?: string[];
            required?: boolean;
        };
        UpdateTicketPresenceRequest: {
            /** @description `viewing` or `replying` (refresh it every ~20 s: it lapses after about 45 s), or `gone` when leaving the ticket */
            state: "viewing" | "replying" | "gone";
        };
        /**
         * @example {
         *       "status": "pending",
         *       "priority": "urgent"
         *     }
         */
        UpdateTicketRequest: {
            subject?: string;
            description?: string;
            /** @enum {string} */
            status?: "new" | "open" | "pending" | "resolved" | "closed";
            /** @enum {string} */
            priority?: "low" | "medium" | "high" | "urgent";
            category?: string | null;
            /**
             * Format: uuid
             * @description null unassigns
             */
            assigned_user_id?: string | null;
            /**
             * Format: uuid
             * @description null unassigns
             */
            assigned_team_id?: string | null;
            /** Format: date-time */
            due_date?: string | null;
            /** @description Replaces all the ticket's tags (not with add_tags or remove_tags). Tags are 1–50 characters of a-z 0-9 _ - : . (upper-case letters are lower-cased); at most 20 per ticket; kept sorted, duplicates dropped */
            tags?: string[];
            /** @description Tags to add to the ticket's (those it has stay). Tags are 1–50 characters of a-z 0-9 _ - : . (upper-case letters are lower-cased); at most 20 per ticket; kept sorted, duplicates dropped */
            add_tags?: string[];
            /** @description Tags to take off the ticket (a tag it does not have is ignored). Tags are 1–50 characters of a-z 0-9 _ - : . (upper-case letters are lower-cased); at most 20 per ticket; kept sorted, duplicates dropped */
            remove_tags?: string[];
            /** @description By field key: text (a string), number, date (YYYY-MM-DD), checkbox (true/false), dropdown (one of its options), multiselect (a list of its options). On PATCH only the keys given change; null clears one. */
            custom_fields?: {
                [key: string]: (string | number | boolean | string[]) | null;
            };
        };
        /**
         * @example {
         *       "active": false
         *     }
         */
        UpdateTriggerRequest: {
            name?: string;
            /** @description The event types that run it: ticket.created, ticket.updated, comment.created, comment.updated, attachment.created */
            on?: string[];
            /** @description At most 20 conditions per list; fields and operators: docs/api-behaviour.md, "Views and conditions". */
            conditions?: {
                /** @description Every one must hold. */
                all?: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
                /** @description At least one must hold (when not empty). */
                any?: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
            };
            /** @description 1 to 50 actions: the macro actions (each field at most once) and notify (docs/api-behaviour.md, "Triggers and automations") */
            actions?: ({
                /**
                 * @description One of status, priority, assigned_user_id, assigned_team_id, category, due_date, add_tags, remove_tags, comment, or custom_fields.<key>
                 * @example status
                 */
                field: string;
                /** @description The field's new value; its type depends on the field (docs/api-behaviour.md, "Macros and actions") */
                value: string | number | boolean | null | string[] | {
                    body: string;
                    /**
                     * @description An internal note: the customer never sees it
                     * @default false
                     */
                    is_internal?: boolean;
                };
            } | {
                /** @constant */
                field: "notify";
                value: {
                    /**
                     * @description "requester" (the ticket's customer), "assignee" (its assigned user) or an email address
                     * @example assignee
                     */
                    to: string;
                    /** @description Sent as "[TKT-n] <subject>" */
                    subject: string;
                    body: string;
                };
            })[];
            /** @description Inactive ones never run (default true) */
            active?: boolean;
            /** @description Triggers run in ascending position (ties: oldest first); default: after the last */
            position?: number;
        };
        /**
         * @example {
         *       "full_name": "Grace B. Hopper"
         *     }
         */
        UpdateUserRequest: {
            /**
             * Format: email
             * @description Unique in the organization, compared case-insensitively
             */
            email?: string;
            full_name?: string;
            /** @enum {string} */
            role?: "admin" | "agent";
            /** @description false ends the user's sessions and refuses sign-in */
            is_active?: boolean;
            /** @description Sets the password the user signs in with (POST /v1/sessions); never returned. Changing it ends the user's sessions */
            password?: string;
        };
        /**
         * @example {
         *       "name": "Urgent tickets"
         *     }
         */
        UpdateViewRequest: {
            name?: string;
            /** @description true: everyone of the organization with views:read sees it; false: only its owner (the caller) does */
            shared?: boolean;
            /** @description At most 20 conditions per list; fields and operators: docs/api-behaviour.md, "Views and conditions". */
            conditions?: {
                /** @description Every one must hold. */
                all?: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
                /** @description At least one must hold (when not empty). */
                any?: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
            };
            /** @description The order of the view's tickets; ties broken by ticket_number in the same order */
            sort?: {
                /**
                 * @description priority sorts low < medium < high < urgent; tickets without a due date (due_date) or a running SLA clock (sla_next_due_at) sort after those with one (asc)
                 * @enum {string}
                 */
                by: "created_at" | "updated_at" | "priority" | "due_date" | "ticket_number" | "sla_next_due_at";
                /** @enum {string} */
                order: "asc" | "desc";
            };
        };
        /**
         * @example {
         *       "status": "paused"
         *     }
         */
        UpdateWebhookRequest: {
            /** @description An https:// URL on a public address (http:// and private addresses only with WEBHOOKS_ALLOW_PRIVATE=true) */
            url?: string;
            /** @description The event types to deliver, or ["*"] for all of them (new types included) */
            events?: ("ticket.created" | "ticket.updated" | "ticket.deleted" | "comment.created" | "comment.updated" | "comment.deleted" | "attachment.created" | "attachment.deleted" | "customer.created" | "customer.updated" | "customer.deleted" | "team.created" | "team.updated" | "team.deleted" | "team.member_added" | "team.member_removed" | "user.created" | "user.updated" | "user.deleted" | "api_key.created" | "api_key.updated" | "api_key.revoked" | "sla.warning" | "sla.breached" | "sla.fulfilled" | "*")[];
            description?: string | null;
            /**
             * @description Pause, or resume (also an endpoint the service disabled)
             * @enum {string}
             */
            status?: "active" | "paused";
            /** @description true: make a new secret (in the answer, once); the previous one still signs deliveries for 24 hours */
            rotate_secret?: boolean;
        };
        UpdatedWebhook: {
            /** Format: uuid */
            id: string;
            /** @description Stored in normalized form (as the WHATWG URL parser writes it) */
            url: string;
            description: string | null;
            events: string[];
            /**
             * @description `active`: delivering; `paused`: set by you, events wait and are delivered in order once active again; `disabled`: set by the service after a delivery failed through every retry (see disabled_reason); make it active to resume
             * @enum {string}
             */
            status: "active" | "paused" | "disabled";
            /** Format: date-time */
            disabled_at: string | null;
            disabled_reason: string | null;
            /**
             * Format: date-time
             * @description After a secret rotation: until then deliveries are signed with the previous secret too
             */
            previous_secret_expires_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /**
             * @description The signing secret (whsec_ + base64), shown only in this answer: store it to verify deliveries
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw7zgz6ZnTMAI=
             */
            secret?: string;
        };
        UploadAttachmentRequest: {
            /**
             * Format: binary
             * @description The file; the part's own Content-Type is its type
             */
            file: Blob;
        };
        User: {
            /** Format: uuid */
            id: string;
            email: string;
            full_name: string;
            /** @enum {string} */
            role: "admin" | "agent";
            is_active: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        View: {
            /** Format: uuid */
            id: string;
            name: string;
            shared: boolean;
            /**
             * Format: uuid
             * @description The user a personal view belongs to; null for a shared view
             */
            owner_user_id: string | null;
            conditions: {
                all: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
                any: {
                    /** @example status */
                    field: string;
                    /** @example in */
                    operator: string;
                    value: (string | number | boolean | null) | (string | number)[];
                }[];
            };
            /** @description The order of the view's tickets; ties broken by ticket_number in the same order */
            sort: {
                /**
                 * @description priority sorts low < medium < high < urgent; tickets without a due date (due_date) or a running SLA clock (sla_next_due_at) sort after those with one (asc)
                 * @enum {string}
                 */
                by: "created_at" | "updated_at" | "priority" | "due_date" | "ticket_number" | "sla_next_due_at";
                /** @enum {string} */
                order: "asc" | "desc";
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        ViewCounts: {
            /**
             * Format: date-time
             * @description When the counts were taken: they may be up to VIEWS_COUNTS_MAX_AGE_MS (default 30 seconds) old
             */
            counted_at: string;
            /** @description How old the counts are, in whole seconds (also the Age header) */
            age_seconds: number;
            views: {
                /** Format: uuid */
                id: string;
                name: string;
                /** @description null when the view names "me" and the caller has no user, or counting it took longer than VIEWS_COUNT_TIMEOUT_MS (or found the organization's counts busy) */
                count: number | null;
            }[];
        };
        /**
         * @example {
         *       "id": "2b6f0c3e-5a4d-4e2f-9c1b-7d8e9f0a1b2c",
         *       "url": "https://hooks.example.com/ticketing",
         *       "description": "Urgent tickets to the on-call chat",
         *       "events": [
         *         "ticket.created",
         *         "ticket.updated"
         *       ],
         *       "status": "active",
         *       "disabled_at": null,
         *       "disabled_reason": null,
         *       "previous_secret_expires_at": null,
         *       "created_at": "2026-01-31T09:15:02.123Z",
         *       "updated_at": "2026-01-31T09:15:02.123Z"
         *     }
         */
        Webhook: {
            /** Format: uuid */
            id: string;
            /** @description Stored in normalized form (as the WHATWG URL parser writes it) */
            url: string;
            description: string | null;
            events: string[];
            /**
             * @description `active`: delivering; `paused`: set by you, events wait and are delivered in order once active again; `disabled`: set by the service after a delivery failed through every retry (see disabled_reason); make it active to resume
             * @enum {string}
             */
            status: "active" | "paused" | "disabled";
            /** Format: date-time */
            disabled_at: string | null;
            disabled_reason: string | null;
            /**
             * Format: date-time
             * @description After a secret rotation: until then deliveries are signed with the previous secret too
             */
            previous_secret_expires_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * @example {
         *       "id": "7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f",
         *       "webhook_id": "2b6f0c3e-5a4d-4e2f-9c1b-7d8e9f0a1b2c",
         *       "event_id": "0c4f3f0e-2b57-4d8e-9a55-3f0f5b2a9d11",
         *       "event_type": "ticket.updated",
         *       "event_cursor": "1047",
         *       "status": "pending",
         *       "attempts": 1,
         *       "next_attempt_at": "2026-01-31T10:02:53.001Z",
         *       "last_attempt_at": "2026-01-31T10:02:48.001Z",
         *       "response_status": 503,
         *       "response_latency_ms": 42,
         *       "response_body": "{\"error\":\"temporarily unavailable\"}",
         *       "error": "HTTP 503",
         *       "created_at": "2026-01-31T10:02:47.600Z",
         *       "completed_at": null
         *     }
         */
        WebhookDelivery: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            webhook_id: string;
            /**
             * Format: uuid
             * @description Also the webhook-id header of every attempt
             */
            event_id: string;
            event_type: string;
            /** @description The event's cursor in the change feed */
            event_cursor: string;
            /**
             * @description `pending`: waiting for its (next) attempt; `succeeded`: a 2xx was received; `failed`: every attempt failed
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed";
            attempts: number;
            /**
             * Format: date-time
             * @description When a pending delivery is tried next
             */
            next_attempt_at: string | null;
            /** Format: date-time */
            last_attempt_at: string | null;
            /** @description The HTTP status of the last attempt's answer; null when there was none */
            response_status: number | null;
            /** @description How long the last attempt took, in milliseconds */
            response_latency_ms: number | null;
            /** @description The first 4 KiB of the last attempt's answer body, as UTF-8 text; null when there was no answer (or before this was kept) */
            response_body: string | null;
            /** @description Why the last attempt failed */
            error: string | null;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description When it succeeded or finally failed
             */
            completed_at: string | null;
        };
        /**
         * @example {
         *       "webhook_id": "2b6f0c3e-5a4d-4e2f-9c1b-7d8e9f0a1b2c",
         *       "event_id": "5d0a3c1e-8f2b-4a6c-9e1d-2b3c4d5e6f70",
         *       "event_type": "webhook.test",
         *       "status": "succeeded",
         *       "attempted_at": "2026-01-31T10:05:00.000Z",
         *       "response_status": 200,
         *       "response_latency_ms": 87,
         *       "response_body": "ok",
         *       "error": null
         *     }
         */
        WebhookTestDelivery: {
            /** Format: uuid */
            webhook_id: string;
            /**
             * Format: uuid
             * @description The webhook-id header of the test request
             */
            event_id: string;
            /** @constant */
            event_type: "webhook.test";
            /**
             * @description `succeeded`: the receiver answered 2xx; `failed`: anything else (see error)
             * @enum {string}
             */
            status: "succeeded" | "failed";
            /** Format: date-time */
            attempted_at: string;
            /** @description The HTTP status of the receiver's answer; null when there was none */
            response_status: number | null;
            /** @description How long the attempt took, in milliseconds */
            response_latency_ms: number;
            /** @description The first 4 KiB of the receiver's answer body, as UTF-8 text; null when there was no answer */
            response_body: string | null;
            /** @description Why the attempt failed */
            error: string | null;
        };
    };
    responses: {
        /** @description Bad request: malformed JSON, a malformed address, or an upload that is not one allowed file of at most 30 MB */
        BadRequest: {
            headers: {
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                /** @description Requests per minute the key's budget allows; sent when the request was counted against a key's budget */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window; sent when the request was counted against a key's budget */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the window resets; sent when the request was counted against a key's budget */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "Malformed JSON body: the request body is not valid JSON"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Missing, malformed, unknown, expired or revoked API key */
        Unauthorized: {
            headers: {
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "Missing API key: send the header Authorization: Bearer <API key>"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The key lacks the required scope or role; `detail` names it */
        Forbidden: {
            headers: {
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                /** @description Requests per minute the key's budget allows; sent when the request was counted against a key's budget */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window; sent when the request was counted against a key's budget */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the window resets; sent when the request was counted against a key's budget */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "Insufficient permissions: requires tickets:write"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Not found (a record of another organization is not found either) */
        NotFound: {
            headers: {
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                /** @description Requests per minute the key's budget allows; sent when the request was counted against a key's budget */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window; sent when the request was counted against a key's budget */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the window resets; sent when the request was counted against a key's budget */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "Ticket not found"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Conflicts with an existing record */
        Conflict: {
            headers: {
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                /** @description Requests per minute the key's budget allows; sent when the request was counted against a key's budget */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window; sent when the request was counted against a key's budget */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the window resets; sent when the request was counted against a key's budget */
                "RateLimit-Reset"?: number;
                /** @description Seconds to wait before retrying: sent when the Idempotency-Key is still in flight */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "A customer with the email ada@example.com already exists"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Request body larger than 1 MiB, or an upload that does not fit in the organization's storage quota */
        PayloadTooLarge: {
            headers: {
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                /** @description Requests per minute the key's budget allows; sent when the request was counted against a key's budget */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window; sent when the request was counted against a key's budget */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the window resets; sent when the request was counted against a key's budget */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "Request body exceeds the 1048576 byte maximum"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A path parameter is longer than 100 characters */
        UriTooLong: {
            headers: {
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "A segment of the request address is too long (at most 100 characters)"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Content-Type is not application/json (or a type the route can read) */
        UnsupportedMediaType: {
            headers: {
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                /** @description Requests per minute the key's budget allows; sent when the request was counted against a key's budget */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window; sent when the request was counted against a key's budget */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the window resets; sent when the request was counted against a key's budget */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "Content-Type must be application/json"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Validation error: `errors` names each invalid field */
        ValidationFailed: {
            headers: {
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                /** @description Requests per minute the key's budget allows; sent when the request was counted against a key's budget */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window; sent when the request was counted against a key's budget */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the window resets; sent when the request was counted against a key's budget */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "Validation failed: body.priority must be one of: low, medium, high, urgent",
                 *       "errors": [
                 *         {
                 *           "field": "body.priority",
                 *           "message": "must be one of: low, medium, high, urgent"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Rate limit exceeded, or (`search_busy`) too many searches of the organization at once: retry after the seconds in Retry-After */
        RateLimited: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                /** @description Requests per minute the key's budget allows; sent when the request was counted against a key's budget */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window; sent when the request was counted against a key's budget */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the window resets; sent when the request was counted against a key's budget */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "Rate limit exceeded. Retry after 12 seconds."
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request line and headers are larger than 16 KiB */
        RequestHeaderFieldsTooLarge: {
            headers: {
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "Request headers are too large: the request line and headers may take at most 16384 bytes"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Internal server error (no internals are shown) */
        InternalError: {
            headers: {
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                /** @description Requests per minute the key's budget allows; sent when the request was counted against a key's budget */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window; sent when the request was counted against a key's budget */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the window resets; sent when the request was counted against a key's budget */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "Internal server error",
                 *       "request_id": "0b7e6c1e-4f57-4a6e-9d0b-2f1c8a3e5d94"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The data store is temporarily unavailable (down, overloaded past its timeouts, read-only or full): retry after the seconds in Retry-After; nothing in the request needs to change. On a search, `search_timeout`: it did not finish within its time budget; retry after Retry-After or narrow it */
        StoreUnavailable: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                /** @description Requests per minute the key's budget allows; sent when the request was counted against a key's budget */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window; sent when the request was counted against a key's budget */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the window resets; sent when the request was counted against a key's budget */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "The data store is temporarily unavailable; retry shortly",
                 *       "request_id": "5c2d9f70-1a3b-4c8e-8f61-7d2e0a9b4c13"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description `no-store` on JSON answers and portal pages: none may be kept by a cache */
        "Cache-Control": string;
        /** @description `bytes *\/<size>`: the size of the file */
        "Content-Range": string;
        /** @description The address of the record made (relative to the service): `<this path>/<id>` */
        CreatedLocation: string;
        /** @description The job made: `/v1/jobs/<job_id>` */
        JobLocation: string;
        /** @description Where to go next */
        Location: string;
        /** @description Requests per minute the key's budget allows */
        "RateLimit-Limit": number;
        /** @description Requests left in the current window */
        "RateLimit-Remaining": number;
        /** @description Seconds until the window resets */
        "RateLimit-Reset": number;
        /** @description Seconds to wait before retrying */
        "Retry-After": number;
        /** @description Always `Bearer` */
        "WWW-Authenticate": string;
        /** @description Always `nosniff` */
        "X-Content-Type-Options": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Liveness"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description Service unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotReady"];
                };
            };
        };
    };
    getCurrentKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeyCheck"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listTickets: {
        parameters: {
            query?: {
                /**
                 * @description One status, or several separated by commas (tickets with any of them): open,pending. Each is one of new, open, pending, resolved, closed.
                 * @example open,pending
                 */
                status?: string;
                /**
                 * @description One priority, or several separated by commas (tickets with any of them): high,urgent. Each is one of low, medium, high, urgent.
                 * @example high,urgent
                 */
                priority?: string;
                assigned_user_id?: string;
                assigned_team_id?: string;
                customer_id?: string;
                category?: string;
                /** @description true: no agent assigned; false: an agent assigned */
                unassigned?: boolean;
                /** @description Case-insensitive substring of subject, description, customer name or email; or a ticket number / TKT- id. At most 500 characters. A term of one or two characters looks through the newest 5000 tickets matching the other filters (422 search_term_too_short when the page lies beyond them). A search past its time budget is 503 search_timeout; more searches of one organization at once than allowed, 429 search_busy. */
                search?: string;
                /** @description Only tickets changed at or after this moment (updated_at >= it): what changed since the last sync */
                updated_since?: string;
                /** @description Only tickets carrying every one of these tags: comma-separated (a,b), at most 20 */
                tag?: string;
                /** @description Only tickets carrying at least one of these tags: comma-separated (a,b), at most 20 */
                any_tag?: string;
                /** @description Page size, 1 to 500 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ticket"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createTicket: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "customer_name": "Ada Lovelace",
                 *       "customer_email": "ada@example.com",
                 *       "subject": "Cannot download my invoice",
                 *       "description": "The invoice page shows an error since this morning.",
                 *       "priority": "high",
                 *       "category": "billing"
                 *     }
                 */
                "application/json": components["schemas"]["CreateTicketRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    Location: components["headers"]["CreatedLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ticket"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getTicket: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current */
                "if-none-match"?: string;
            };
            path: {
                ticket_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ticket"];
                };
            };
            /** @description Not Modified: the copy named in If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteTicket: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed */
                "if-match"?: string;
            };
            path: {
                ticket_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description HTTP 412 */
            412: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    updateTicket: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed */
                "if-match"?: string;
            };
            path: {
                ticket_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "status": "pending",
                 *       "priority": "urgent"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateTicketRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ticket"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description HTTP 412 */
            412: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createTrackingToken: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path: {
                ticket_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ticket"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listCustomers: {
        parameters: {
            query?: {
                /** @description The customer with this email, compared case-insensitively */
                email?: string;
                /** @description Only customers changed at or after this moment (updated_at >= it): what changed since the last sync */
                updated_since?: string;
                /** @description Page size, 1 to 100 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createCustomer: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Charles Babbage",
                 *       "email": "charles@example.com",
                 *       "company": "Difference Engines Ltd",
                 *       "customer_tier": "tier_2",
                 *       "is_vip": false
                 *     }
                 */
                "application/json": components["schemas"]["CreateCustomerRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    Location: components["headers"]["CreatedLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getCustomer: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current */
                "if-none-match"?: string;
            };
            path: {
                customer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /** @description Not Modified: the copy named in If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteCustomer: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed */
                "if-match"?: string;
            };
            path: {
                customer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description HTTP 412 */
            412: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    updateCustomer: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed */
                "if-match"?: string;
            };
            path: {
                customer_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "company": "Difference Engines plc",
                 *       "is_vip": true
                 *     }
                 */
                "application/json": components["schemas"]["UpdateCustomerRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            /** @description HTTP 412 */
            412: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listUsers: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "grace@example.com",
                 *       "full_name": "Grace Hopper",
                 *       "role": "agent"
                 *     }
                 */
                "application/json": components["schemas"]["CreateUserRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    Location: components["headers"]["CreatedLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current */
                "if-none-match"?: string;
            };
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Not Modified: the copy named in If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed */
                "if-match"?: string;
            };
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description HTTP 412 */
            412: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed */
                "if-match"?: string;
            };
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "full_name": "Grace B. Hopper"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateUserRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            /** @description HTTP 412 */
            412: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "grace@example.com",
                 *       "password": "correct horse battery staple"
                 *     }
                 */
                "application/json": components["schemas"]["CreateSessionRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description HTTP 401 */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description HTTP 413 */
            413: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description HTTP 415 */
            415: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getCurrentSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteCurrentSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listTeams: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TeamSummary"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createTeam: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Billing",
                 *       "description": "Invoices, refunds and payment methods"
                 *     }
                 */
                "application/json": components["schemas"]["CreateTeamRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    Location: components["headers"]["CreatedLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Team"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getTeam: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current */
                "if-none-match"?: string;
            };
            path: {
                team_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Team"];
                };
            };
            /** @description Not Modified: the copy named in If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteTeam: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed */
                "if-match"?: string;
            };
            path: {
                team_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description HTTP 412 */
            412: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    updateTeam: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed */
                "if-match"?: string;
            };
            path: {
                team_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "Invoices, refunds, payment methods and VAT"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateTeamRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Team"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description HTTP 412 */
            412: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    addTeamMember: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path: {
                team_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "user_id": "0b5a6a0e-6f4b-4a7e-9d6c-2f1e8f3c9a10"
                 *     }
                 */
                "application/json": components["schemas"]["AddTeamMemberRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    removeTeamMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: string;
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listTags: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 500 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TagCount"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listTicketFields: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 500 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketField"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createTicketField: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "key": "plan",
                 *       "label": "Plan",
                 *       "type": "dropdown",
                 *       "options": [
                 *         "free",
                 *         "pro",
                 *         "enterprise"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["CreateTicketFieldRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    Location: components["headers"]["CreatedLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketField"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getTicketField: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current */
                "if-none-match"?: string;
            };
            path: {
                field_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketField"];
                };
            };
            /** @description Not Modified: the copy named in If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteTicketField: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                field_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    updateTicketField: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                field_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "label": "Customer plan"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateTicketFieldRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketField"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listViews: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 500 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["View"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createView: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Open urgent tickets",
                 *       "shared": true,
                 *       "conditions": {
                 *         "all": [
                 *           {
                 *             "field": "status",
                 *             "operator": "in",
                 *             "value": [
                 *               "new",
                 *               "open"
                 *             ]
                 *           },
                 *           {
                 *             "field": "priority",
                 *             "operator": "is",
                 *             "value": "urgent"
                 *           }
                 *         ],
                 *         "any": []
                 *       },
                 *       "sort": {
                 *         "by": "created_at",
                 *         "order": "desc"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CreateViewRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    Location: components["headers"]["CreatedLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["View"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listViewCounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ViewCounts"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getView: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current */
                "if-none-match"?: string;
            };
            path: {
                view_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["View"];
                };
            };
            /** @description Not Modified: the copy named in If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteView: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                view_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    updateView: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                view_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Urgent tickets"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateViewRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["View"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listViewTickets: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 500 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path: {
                view_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ticket"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createBulkTicketJob: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateBulkTicketJobRequest"];
            };
        };
        responses: {
            /** @description HTTP 202 */
            202: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    Location: components["headers"]["JobLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobAccepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listJobs: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobSummary"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getJob: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current */
                "if-none-match"?: string;
            };
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Not Modified: the copy named in If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listTriggers: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 500 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Trigger"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createTrigger: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Urgent tickets: tag and tell the assignee",
                 *       "on": [
                 *         "ticket.created",
                 *         "ticket.updated"
                 *       ],
                 *       "conditions": {
                 *         "all": [
                 *           {
                 *             "field": "priority",
                 *             "operator": "is",
                 *             "value": "urgent"
                 *           }
                 *         ],
                 *         "any": []
                 *       },
                 *       "actions": [
                 *         {
                 *           "field": "add_tags",
                 *           "value": [
                 *             "vip"
                 *           ]
                 *         },
                 *         {
                 *           "field": "notify",
                 *           "value": {
                 *             "to": "assignee",
                 *             "subject": "An urgent ticket",
                 *             "body": "Please look at it."
                 *           }
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["CreateTriggerRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    Location: components["headers"]["CreatedLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Trigger"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getTrigger: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current */
                "if-none-match"?: string;
            };
            path: {
                trigger_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Trigger"];
                };
            };
            /** @description Not Modified: the copy named in If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteTrigger: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                trigger_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    updateTrigger: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                trigger_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "active": false
                 *     }
                 */
                "application/json": components["schemas"]["UpdateTriggerRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Trigger"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listAutomations: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 500 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Automation"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createAutomation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Pending for 5 days: close with a note",
                 *       "conditions": {
                 *         "all": [
                 *           {
                 *             "field": "status",
                 *             "operator": "is",
                 *             "value": "pending"
                 *           },
                 *           {
                 *             "field": "hours_since_status_change",
                 *             "operator": "at_least",
                 *             "value": 120
                 *           }
                 *         ],
                 *         "any": []
                 *       },
                 *       "actions": [
                 *         {
                 *           "field": "status",
                 *           "value": "closed"
                 *         },
                 *         {
                 *           "field": "comment",
                 *           "value": {
                 *             "body": "Closed after 5 days without an answer.",
                 *             "is_internal": true
                 *           }
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["CreateAutomationRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    Location: components["headers"]["CreatedLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Automation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getAutomation: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current */
                "if-none-match"?: string;
            };
            path: {
                automation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Automation"];
                };
            };
            /** @description Not Modified: the copy named in If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                automation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    updateAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                automation_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "active": false
                 *     }
                 */
                "application/json": components["schemas"]["UpdateAutomationRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Automation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listSlaPolicies: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 500 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SlaPolicy"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createSlaPolicy: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Urgent tickets",
                 *       "position": 0,
                 *       "conditions": {
                 *         "all": [
                 *           {
                 *             "field": "priority",
                 *             "operator": "in",
                 *             "value": [
                 *               "high",
                 *               "urgent"
                 *             ]
                 *           }
                 *         ],
                 *         "any": []
                 *       },
                 *       "business_hours_id": null,
                 *       "targets": [
                 *         {
                 *           "priority": "urgent",
                 *           "first_response_minutes": 30,
                 *           "next_response_minutes": 60,
                 *           "resolution_minutes": 240,
                 *           "warning_minutes": 10
                 *         },
                 *         {
                 *           "priority": "high",
                 *           "first_response_minutes": 120,
                 *           "next_response_minutes": 240,
                 *           "resolution_minutes": 1440,
                 *           "warning_minutes": 30
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["CreateSlaPolicyRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    Location: components["headers"]["CreatedLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SlaPolicy"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getSlaPolicy: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current */
                "if-none-match"?: string;
            };
            path: {
                sla_policy_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SlaPolicy"];
                };
            };
            /** @description Not Modified: the copy named in If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteSlaPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sla_policy_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    updateSlaPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sla_policy_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "position": 1
                 *     }
                 */
                "application/json": components["schemas"]["UpdateSlaPolicyRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SlaPolicy"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listBusinessHours: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 500 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BusinessHours"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createBusinessHours: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Berlin office",
                 *       "time_zone": "Europe/Berlin",
                 *       "weekly": [
                 *         {
                 *           "day": "mon",
                 *           "start": "09:00",
                 *           "end": "17:00"
                 *         },
                 *         {
                 *           "day": "tue",
                 *           "start": "09:00",
                 *           "end": "17:00"
                 *         },
                 *         {
                 *           "day": "wed",
                 *           "start": "09:00",
                 *           "end": "17:00"
                 *         },
                 *         {
                 *           "day": "thu",
                 *           "start": "09:00",
                 *           "end": "17:00"
                 *         },
                 *         {
                 *           "day": "fri",
                 *           "start": "09:00",
                 *           "end": "17:00"
                 *         }
                 *       ],
                 *       "holidays": [
                 *         {
                 *           "date": "2026-12-25",
                 *           "name": "Christmas Day"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["CreateBusinessHoursRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    Location: components["headers"]["CreatedLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BusinessHours"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getBusinessHours: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current */
                "if-none-match"?: string;
            };
            path: {
                business_hours_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BusinessHours"];
                };
            };
            /** @description Not Modified: the copy named in If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteBusinessHours: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                business_hours_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    updateBusinessHours: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                business_hours_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "holidays": [
                 *         {
                 *           "date": "2026-12-26",
                 *           "name": "Boxing Day"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["UpdateBusinessHoursRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BusinessHours"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listComments: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 500 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path: {
                ticket_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createComment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
                /** @description Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed */
                "if-match"?: string;
            };
            path: {
                ticket_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "body": "Thanks for the report: we are looking into it.",
                 *       "is_internal": false
                 *     }
                 */
                "application/json": components["schemas"]["CreateCommentRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    Location: components["headers"]["CreatedLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            /** @description HTTP 412 */
            412: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getComment: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current */
                "if-none-match"?: string;
            };
            path: {
                ticket_id: string;
                comment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"];
                };
            };
            /** @description Not Modified: the copy named in If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteComment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed */
                "if-match"?: string;
            };
            path: {
                ticket_id: string;
                comment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description HTTP 412 */
            412: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    updateComment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed */
                "if-match"?: string;
            };
            path: {
                ticket_id: string;
                comment_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "body": "Thanks for the report: a fix is on its way."
                 *     }
                 */
                "application/json": components["schemas"]["UpdateCommentRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description HTTP 412 */
            412: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listMacros: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 500 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Macro"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createMacro: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Ask for a screenshot",
                 *       "actions": [
                 *         {
                 *           "field": "status",
                 *           "value": "pending"
                 *         },
                 *         {
                 *           "field": "assigned_user_id",
                 *           "value": "me"
                 *         },
                 *         {
                 *           "field": "add_tags",
                 *           "value": [
                 *             "waiting-on-customer"
                 *           ]
                 *         },
                 *         {
                 *           "field": "comment",
                 *           "value": {
                 *             "body": "Could you send us a screenshot of the error?",
                 *             "is_internal": false
                 *           }
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["CreateMacroRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    Location: components["headers"]["CreatedLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Macro"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getMacro: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current */
                "if-none-match"?: string;
            };
            path: {
                macro_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Macro"];
                };
            };
            /** @description Not Modified: the copy named in If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteMacro: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                macro_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    updateMacro: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                macro_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Ask for a screenshot (pending)"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateMacroRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Macro"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    applyMacro: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
                /** @description Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed */
                "if-match"?: string;
            };
            path: {
                ticket_id: string;
                macro_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ticket"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            /** @description HTTP 412 */
            412: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
                role?: "admin" | "readonly";
                holder_user_id?: string;
                /** @description active: neither revoked nor expired; expired: past expires_at, not revoked; revoked */
                status?: "active" | "expired" | "revoked";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Reporting dashboard",
                 *       "role": "readonly"
                 *     }
                 */
                "application/json": components["schemas"]["CreateApiKeyRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    Location: components["headers"]["CreatedLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current */
                "if-none-match"?: string;
            };
            path: {
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description Not Modified: the copy named in If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed */
                "if-match"?: string;
            };
            path: {
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description HTTP 412 */
            412: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    updateApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed */
                "if-match"?: string;
            };
            path: {
                key_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Reporting dashboard (finance)"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateApiKeyRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            /** @description HTTP 412 */
            412: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description A cursor from an earlier answer (`next_cursor` or an event's `cursor`), or `now`: the feed's current end, answered with no events and the `next_cursor` to follow from (only what happens from then on) */
                after?: string;
                /** @description Comma-separated event types (ticket.created,comment.created); only these are returned */
                types?: string;
                /** @description Events per page, 1 to 1000 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventFeedPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description HTTP 410 */
            410: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listTicketEvents: {
        parameters: {
            query?: {
                /** @description Comma-separated event types (ticket.created,comment.created); only these are returned */
                types?: string;
                /** @description Page size, 1 to 500 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path: {
                ticket_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Event"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    followLiveStream: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `id` of the last `change` message received: the stream resumes right after it (browsers send it when they reconnect) */
                "last-event-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A `text/event-stream`. `event: change` messages (`id:` the event id, `data:` the event as in the change feed), `event: presence` messages (`data: { "ticket_id", "users": [ { "id", "type", "name", "state" } ] }`), `event: resync` when Last-Event-ID named no kept event, and comment lines as heartbeats every ~15 s. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    updateTicketPresence: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticket_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateTicketPresenceRequest"];
            };
        };
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://hooks.example.com/ticketing",
                 *       "events": [
                 *         "ticket.created",
                 *         "comment.created"
                 *       ],
                 *       "description": "Chat notifications"
                 *     }
                 */
                "application/json": components["schemas"]["CreateWebhookRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    Location: components["headers"]["CreatedLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedWebhook"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current */
                "if-none-match"?: string;
            };
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Not Modified: the copy named in If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed */
                "if-match"?: string;
            };
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description HTTP 412 */
            412: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed */
                "if-match"?: string;
            };
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "status": "paused"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateWebhookRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdatedWebhook"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description HTTP 412 */
            412: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                status?: "pending" | "succeeded" | "failed";
                /** @description Page size, 1 to 100 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path: {
                webhook_id: string;
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description HTTP 202 */
            202: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createWebhookTest: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTestDelivery"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listMailboxes: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Mailbox"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createMailbox: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "address": "support@acme.test",
                 *       "name": "Acme Support",
                 *       "inbound": {
                 *         "type": "imap",
                 *         "host": "imap.acme.test",
                 *         "port": 993,
                 *         "security": "tls",
                 *         "username": "support@acme.test",
                 *         "password": "app-password"
                 *       },
                 *       "outbound": null
                 *     }
                 */
                "application/json": components["schemas"]["CreateMailboxRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    Location: components["headers"]["CreatedLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Mailbox"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getMailbox: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current */
                "if-none-match"?: string;
            };
            path: {
                mailbox_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Mailbox"];
                };
            };
            /** @description Not Modified: the copy named in If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteMailbox: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed */
                "if-match"?: string;
            };
            path: {
                mailbox_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description HTTP 412 */
            412: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    updateMailbox: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed */
                "if-match"?: string;
            };
            path: {
                mailbox_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "state": "paused"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateMailboxRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Mailbox"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            /** @description HTTP 412 */
            412: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listAttachments: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 500 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path: {
                ticket_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Attachment"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    uploadAttachment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path: {
                ticket_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["UploadAttachmentRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    Location: components["headers"]["CreatedLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Attachment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getAttachment: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current */
                "if-none-match"?: string;
            };
            path: {
                ticket_id: string;
                attachment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Attachment"];
                };
            };
            /** @description Not Modified: the copy named in If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteAttachment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed */
                "if-match"?: string;
            };
            path: {
                ticket_id: string;
                attachment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description HTTP 412 */
            412: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getAttachmentDownload: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current */
                "if-none-match"?: string;
            };
            path: {
                ticket_id: string;
                attachment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DownloadLink"];
                };
            };
            /** @description Not Modified: the copy named in If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    downloadFile: {
        parameters: {
            query?: {
                /** @description When the address stops working, in Unix seconds (at most 12 digits), as issued */
                expires?: string;
                /** @description HMAC-SHA256 of the address, base64url, as issued */
                signature?: string;
            };
            header?: never;
            path: {
                attachment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file, with the Content-Type it was uploaded with */
            200: {
                headers: {
                    /** @description Always `private` */
                    "Cache-Control"?: string;
                    /** @description Always `nosniff` */
                    "X-Content-Type-Options"?: string;
                    /** @description `attachment`, with the file name (RFC 6266: ASCII `filename` and UTF-8 `filename*`) */
                    "Content-Disposition"?: string;
                    /** @description Always `bytes`: a Range request is answered with 206 */
                    "Accept-Ranges"?: string;
                    /** @description Always `sandbox`: an uploaded HTML file never runs as a page of the service */
                    "Content-Security-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": Blob;
                    "text/html": Blob;
                    "application/pdf": Blob;
                    "image/png": Blob;
                    "image/jpeg": Blob;
                    "image/gif": Blob;
                    "image/webp": Blob;
                    "video/mp4": Blob;
                    "video/webm": Blob;
                    "video/ogg": Blob;
                    "video/quicktime": Blob;
                    "application/zip": Blob;
                    "application/x-7z-compressed": Blob;
                    "application/gzip": Blob;
                };
            };
            /** @description The requested range of the file (one range) */
            206: {
                headers: {
                    /** @description Always `private` */
                    "Cache-Control"?: string;
                    /** @description Always `nosniff` */
                    "X-Content-Type-Options"?: string;
                    /** @description `attachment`, with the file name (RFC 6266: ASCII `filename` and UTF-8 `filename*`) */
                    "Content-Disposition"?: string;
                    /** @description Always `bytes`: a Range request is answered with 206 */
                    "Accept-Ranges"?: string;
                    /** @description Always `sandbox`: an uploaded HTML file never runs as a page of the service */
                    "Content-Security-Policy"?: string;
                    /** @description `bytes <first>-<last>/<size>` */
                    "Content-Range"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": Blob;
                    "text/html": Blob;
                    "application/pdf": Blob;
                    "image/png": Blob;
                    "image/jpeg": Blob;
                    "image/gif": Blob;
                    "image/webp": Blob;
                    "video/mp4": Blob;
                    "video/webm": Blob;
                    "video/ogg": Blob;
                    "video/quicktime": Blob;
                    "application/zip": Blob;
                    "application/x-7z-compressed": Blob;
                    "application/gzip": Blob;
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            414: components["responses"]["UriTooLong"];
            /** @description Range not satisfiable */
            416: {
                headers: {
                    "Content-Range": components["headers"]["Content-Range"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    postMailboxMessage: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer without doing the work again; with another body it is 422; while the first is still running, 409. 1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes. */
                "idempotency-key"?: string;
            };
            path: {
                mailbox_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "message/rfc822": components["schemas"]["PostMailboxMessageRequest"];
            };
        };
        responses: {
            /** @description HTTP 202 */
            202: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null) */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MailIntakeResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getTicketRawMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticket_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The message exactly as it was received */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "message/rfc822": Blob;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getCommentRawMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticket_id: string;
                comment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The message exactly as it was received */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "message/rfc822": Blob;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getPortalTicket: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current */
                "if-none-match"?: string;
            };
            path: {
                /** @description The ticket's tracking_token */
                tracking_token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalTicket"];
                };
            };
            /** @description Not Modified: the copy named in If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            414: components["responses"]["UriTooLong"];
            /** @description Validation error */
            422: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listPortalComments: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 500 */
                limit?: number;
                /** @description Records to skip (same as skip), 0 to 100,000; to reach further, narrow the list with filters */
                offset?: number;
                /** @description Records to skip (same as offset), 0 to 100,000; to reach further, narrow the list with filters */
                skip?: number;
                /** @description Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts right after that page's last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The ticket's tracking_token */
                tracking_token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    /** @description The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalComment"][];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            414: components["responses"]["UriTooLong"];
            /** @description Validation error */
            422: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createPortalComment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's tracking_token */
                tracking_token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "body": "It still happens on every invoice."
                 *     }
                 */
                "application/json": components["schemas"]["CreatePortalCommentRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalComment"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description HTTP 409 */
            409: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description HTTP 413 */
            413: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            414: components["responses"]["UriTooLong"];
            /** @description HTTP 415 */
            415: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getPortalAttachmentDownload: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current */
                "if-none-match"?: string;
            };
            path: {
                /** @description The ticket's tracking_token */
                tracking_token: string;
                attachment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    /** @description The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DownloadLink"];
                };
            };
            /** @description Not Modified: the copy named in If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            414: components["responses"]["UriTooLong"];
            /** @description Validation error */
            422: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getPortalPage: {
        parameters: {
            query?: {
                /** @description `1` right after a reply was sent: the page confirms it */
                sent?: string;
            };
            header?: never;
            path: {
                /** @description The ticket's tracking_token */
                tracking_token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ticket page */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The address is malformed (bad percent-encoding) */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Not found: the same page for an unknown and a malformed token */
            404: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description A segment of the address is longer than 100 characters */
            414: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description A query parameter is malformed (e.g. `sent` with a NUL) */
            422: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Too many requests from this address; Retry-After says when to come back */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Internal server error */
            500: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The service is temporarily unavailable; Retry-After says when to try again */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    postPortalReply: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's tracking_token */
                tracking_token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["PostPortalReplyRequest"];
                "application/x-www-form-urlencoded": components["schemas"]["PostPortalReplyRequest"];
            };
        };
        responses: {
            /** @description Sent: back to the ticket page (Location, with `sent=1` so it confirms), at the new comment */
            303: {
                headers: {
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A refused file (type, size, content): the ticket page with the reason; or a form or address that could not be read */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Not found: the same page for an unknown and a malformed token */
            404: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The ticket is closed: its page with the reason */
            409: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description An urlencoded form larger than 1 MiB, or files over the organization's storage quota */
            413: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description A segment of the address is longer than 100 characters */
            414: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Neither multipart/form-data nor an urlencoded form */
            415: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Empty or too long: the ticket page with the reason and the text as typed */
            422: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Too many requests from this address; Retry-After says when to come back */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Internal server error */
            500: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The service is temporarily unavailable; Retry-After says when to try again */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    followPortalAttachment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's tracking_token */
                tracking_token: string;
                attachment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the signed download address (Location), valid for an hour */
            303: {
                headers: {
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The address is malformed (bad percent-encoding) */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Not found: the same page for an unknown and a malformed token */
            404: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description A segment of the address is longer than 100 characters */
            414: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Too many requests from this address; Retry-After says when to come back */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Internal server error */
            500: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The service is temporarily unavailable; Retry-After says when to try again */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
}
