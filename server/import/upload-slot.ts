import { DomainError } from '../domain-error';

/** Who is unpacking and importing an upload now. */
export interface UploadHolder {
  filename: string | undefined;
  username: string;
  since: Date;
}

/** An upload refused because another holds the slot: the message names it. */
export class UploadBusyError extends DomainError {
  constructor(readonly holder: UploadHolder) {
    const what = holder.filename === undefined ? 'an upload' : `"${holder.filename}"`;
    super('conflict', `another upload is being unpacked and imported: ${what} from ${holder.username}, since ${holder.since.toISOString().slice(11, 19)} UTC. One upload at a time: try again when it is done.`);
  }
}

/**
 * One upload at a time per server: each may write up to its limits to the temporary folder's
 * disk and runs a whole import, so two at once would double both. A second upload is refused
 * at once, naming the one in progress, rather than queued: a browser waiting on a queued
 * request shows nothing, and the curator can retry knowing why.
 */
export class UploadSlot {
  private holder: UploadHolder | null = null;

  /** Takes the slot, or throws UploadBusyError; call the returned function when the upload ends, however it ends. */
  take(holder: UploadHolder): () => void {
    if (this.holder !== null) throw new UploadBusyError(this.holder);
    this.holder = holder;
    return () => {
      if (this.holder === holder) this.holder = null;
    };
  }
}
