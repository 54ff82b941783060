import { useQuery } from '@tanstack/react-query';
import { api, must } from './api.js';

/** The organization's agents, teams and custom fields: read once, shared by every page. */
export const useUsers = () =>
  useQuery({ queryKey: ['users'], staleTime: 300_000, queryFn: async () => must(await api.GET('/v1/users', { params: { query: { limit: 100 } } })) });
export const useTeams = () =>
  useQuery({ queryKey: ['teams'], staleTime: 300_000, queryFn: async () => must(await api.GET('/v1/teams', { params: { query: { limit: 100 } } })) });
export const useFields = () =>
  useQuery({ queryKey: ['fields'], staleTime: 300_000, queryFn: async () => must(await api.GET('/v1/ticket-fields', { params: { query: { limit: 500 } } })) });
