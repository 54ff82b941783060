/** Who is calling: the key's organization, role and scopes. Shared by the requests of a cached key: never change it. */
export interface AuthContext {
  keyId: string;
  organizationId: string;
  role: 'admin' | 'readonly';
  scopes: ReadonlySet<string>;
  keyPrefix: string;
  holderUserId: string | null;
  expiresAt: string | null;
}
