import { randomUUID } from 'node:crypto';
import type { Multipart } from '@fastify/multipart';
import { errors } from '../../errors.js';
import { acceptPart, quotaRoom, readableParts, stageFile, type AttachmentDeps } from '../attachments/attachments.service.js';

type UploadDeps = Pick<AttachmentDeps, 'store' | 'blobs' | 'config'>;

/** At most this many files go with one reply. */
export const MAX_REPLY_FILES = 5;

/** A file streamed to staging for a reply; its row is committed with the reply, or its bytes discarded. */
export interface StagedFile {
  id: string;
  filename: string;
  contentType: string;
  size: number;
}

/** What was read of a reply form so far: the text is kept even when a file is refused. */
export interface ReplyForm {
  text: string;
  files: StagedFile[];
}

/**
 * Reads the reply form (multipart/form-data: a `body` field and up to five `files` parts) and
 * streams each file to staging through the same checks as the upload API (allowed types, 30 MB,
 * content matching the declared type, the organization's quota), never holding a file in memory.
 * An empty file input (no name, no bytes) is ignored. On any refusal the files already staged are
 * discarded and the error thrown; `form.text` keeps what was typed, if it came before the file.
 */
export async function readReplyForm(deps: UploadDeps, organizationId: string, parts: AsyncIterable<Multipart>, form: ReplyForm): Promise<void> {
  const { usedBefore, room } = await quotaRoom(deps, organizationId);
  const quota = deps.config.storageQuotaBytes;
  let staged = 0;
  try {
    for await (const part of readableParts(parts)) {
      if (part.type === 'field') {
        if (part.fieldname === 'body' && typeof part.value === 'string') form.text = part.value;
        continue;
      }
      if (part.filename === '') {
        // The file input left empty: browsers still send the part, nameless and (nearly) empty.
        part.file.resume();
        continue;
      }
      if (part.fieldname !== 'files' || form.files.length >= MAX_REPLY_FILES) {
        part.file.destroy();
        throw errors.invalidField('body.files', `must be at most ${MAX_REPLY_FILES} files, sent as parts named 'files'`);
      }
      let accepted;
      try {
        accepted = acceptPart(part);
      } catch (error) {
        part.file.destroy();
        throw error;
      }
      const id = randomUUID();
      const overQuota = () => errors.storageQuotaExceeded(usedBefore + staged, quota);
      // Registered before staging, so a failure midway still discards what was written.
      const file: StagedFile = { id, ...accepted, size: 0 };
      form.files.push(file);
      file.size = await stageFile(deps.blobs, id, organizationId, part, accepted.contentType, overQuota, room - staged, null);
      staged += file.size;
    }
  } catch (error) {
    await discardStaged(deps, form.files);
    form.files = [];
    throw error;
  }
}

/** Drops the staged bytes of files whose reply was not committed. */
export async function discardStaged(deps: UploadDeps, files: readonly StagedFile[]): Promise<void> {
  await Promise.all(files.map((f) => deps.blobs.discard(f.id)));
}
