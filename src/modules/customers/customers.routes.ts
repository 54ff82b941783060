import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../auth/authenticate.js';
import { ifMatchOf } from '../../http/conditional.js';
import { CREATED_ASC, toPage, withNextLink } from '../../shared/pagination.js';
import { actorOf } from '../events/events.log.js';
import { ErrorBody, responses } from '../../shared/schemas.js';
import { CreateCustomerBody, Customer, CustomerParams, ListCustomersQuery, UpdateCustomerBody } from './customers.schemas.js';
import * as customers from './customers.service.js';

export async function customersRoutes(fastify: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Customers'];

  app.get('/v1/customers', {
    config: { auth: { scope: 'customers:read' } },
    schema: {
      tags,
      summary: 'List customers, oldest first',
      querystring: ListCustomersQuery,
      response: responses({ 200: Type.Array(Customer) }),
    },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      const list = await customers.listCustomers(deps, authOf(request).organizationId, request.query, page);
      return withNextLink(request, reply, page, list, CREATED_ASC);
    },
  });

  app.get('/v1/customers/:customer_id', {
    config: { auth: { scope: 'customers:read' } },
    schema: { tags, summary: 'Get a customer', params: CustomerParams, response: responses({ 200: Customer, 404: ErrorBody }) },
    handler: (request) => customers.getCustomer(deps, authOf(request).organizationId, request.params.customer_id),
  });

  app.post('/v1/customers', {
    config: { auth: { scope: 'customers:write' } },
    schema: {
      tags,
      summary: 'Create a customer',
      body: CreateCustomerBody,
      response: responses({ 201: Customer, 409: ErrorBody }, [400, 413, 415]),
    },
    handler: async (request, reply) => {
      const customer = await customers.createCustomer(deps, authOf(request).organizationId, request.body, actorOf(authOf(request)));
      return reply.code(201).send(customer);
    },
  });

  app.patch('/v1/customers/:customer_id', {
    config: { auth: { scope: 'customers:write' }, ifMatch: true },
    schema: {
      tags,
      summary: 'Update a customer (partial)',
      params: CustomerParams,
      body: UpdateCustomerBody,
      response: responses({ 200: Customer, 404: ErrorBody, 409: ErrorBody }, [400, 413, 415]),
    },
    handler: (request) => customers.updateCustomer(deps, authOf(request).organizationId, request.params.customer_id, request.body, actorOf(authOf(request)), ifMatchOf(request)),
  });

  app.delete('/v1/customers/:customer_id', {
    config: { auth: { scope: 'customers:delete' }, ifMatch: true },
    schema: {
      tags,
      summary: "Delete a customer with their tickets and the tickets' comments and attachments",
      params: CustomerParams,
      response: responses({ 204: Type.Null(), 404: ErrorBody }),
    },
    handler: async (request, reply) => {
      await customers.deleteCustomer(deps, authOf(request).organizationId, request.params.customer_id, actorOf(authOf(request)), ifMatchOf(request));
      return reply.code(204).send(null);
    },
  });
}
