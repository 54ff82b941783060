import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../auth/authenticate.js';
import { ErrorBody, responses } from '../../shared/schemas.js';
import { Type } from 'typebox';
import { toPage, withNextLink } from '../../shared/pagination.js';
import { JOBS_ORDER } from './jobs.repository.js';
import { BulkBody, Job, JobAccepted, JobParams, JobSummary, ListJobsQuery } from './jobs.schemas.js';
import * as jobs from './jobs.service.js';

export async function jobsRoutes(fastify: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post('/v1/tickets/bulk', {
    config: { auth: { scope: 'tickets:write' } },
    schema: {
      tags: ['Tickets'],
      summary: 'Change many tickets at once (a job)',
      description:
        'Applies the actions to each ticket (given by ids, or the tickets a view matches now; at most 1,000) in its own transaction with its own events. ' +
        'Answers 202 with the job at once (Location: /v1/jobs/{job_id}); GET the job for its progress and per-ticket results. ' +
        'An id that names no ticket of the organization fails as its item ("Ticket not found").',
      body: BulkBody,
      response: responses({ 202: JobAccepted }, [400, 413, 415]),
    },
    handler: async (request, reply) => {
      const id = await jobs.createBulkJob(deps, authOf(request), request.body);
      return reply.code(202).header('location', `/v1/jobs/${id}`).send({ job_id: id });
    },
  });

  app.get('/v1/jobs', {
    config: { auth: { scope: 'tickets:read' } },
    schema: {
      tags: ['Jobs'],
      summary: "List the organization's jobs, newest first",
      description: 'Each with its status and progress; GET a job for its per-ticket results. Jobs that ended more than JOBS_RETENTION_DAYS (default 30) ago are deleted.',
      querystring: ListJobsQuery,
      response: responses({ 200: Type.Array(JobSummary) }),
    },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      return withNextLink(request, reply, page, await jobs.listJobs(deps, authOf(request).organizationId, page), JOBS_ORDER);
    },
  });

  app.get('/v1/jobs/:job_id', {
    config: { auth: { scope: 'tickets:read' } },
    schema: {
      tags: ['Jobs'],
      summary: 'Get a job: its status, progress and per-ticket results',
      params: JobParams,
      response: responses({ 200: Job, 404: ErrorBody }),
    },
    handler: (request) => jobs.getJob(deps, authOf(request).organizationId, request.params.job_id),
  });
}
