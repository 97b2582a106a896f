import type { Locator, Page } from 'playwright-core';

/** One proposal at /pool/:id: its lineage, reflections (and the Reflect button), feedback and items. */
export class ProposalPage {
  readonly heading: Locator;
  readonly lineage: Locator;
  readonly lineageNodes: Locator;
  readonly reflectButton: Locator;
  readonly reflectResult: Locator;
  readonly reflectError: Locator;
  readonly reflections: Locator;
  readonly feedbackEntries: Locator;

  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    this.heading = page.getByRole('heading', { level: 1 });
    this.lineage = page.getByTestId('lineage-tree');
    this.lineageNodes = this.lineage.getByTestId('lineage-node');
    this.reflectButton = page.getByRole('button', { name: 'Reflect' });
    this.reflectResult = page.getByTestId('reflect-result');
    this.reflectError = page.getByTestId('reflect-error');
    this.reflections = page.getByTestId('reflection');
    this.feedbackEntries = page.getByTestId('feedback-entry');
  }

  async goto(id: number): Promise<this> {
    await this.page.goto(`${this.baseUrl}/pool/${id}`);
    await this.waitForProposal(id);
    return this;
  }

  /** Waits until proposal `id`'s page, lineage included, is on screen (after a link was followed, say). */
  async waitForProposal(id: number): Promise<void> {
    await this.page.getByRole('heading', { level: 1, name: `Proposal #${id}` }).waitFor();
    await this.lineage.waitFor();
  }

  /** The feedback row of one item. */
  feedbackFor(itemId: number): Locator {
    return this.page.locator(`[data-testid="feedback-entry"][data-item-id="${itemId}"]`);
  }

  /** Presses Reflect and returns the id of the revision it reports (waits for the report). */
  async reflect(): Promise<number> {
    await this.reflectButton.click();
    const link = this.reflectResult.getByTestId('reflect-revised-link');
    await link.waitFor();
    return Number(((await link.textContent()) ?? '').replace('#', ''));
  }

  /** Lineage nodes as id → relation (ancestor, self, descendant), in the order drawn. */
  async lineageRelations(): Promise<[number, string][]> {
    return this.lineageNodes.evaluateAll((nodes) =>
      nodes.map((node): [number, string] => [Number(node.getAttribute('data-proposal-id')), node.getAttribute('data-relation') ?? '']),
    );
  }
}
