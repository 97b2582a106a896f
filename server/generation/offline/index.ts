/**
 * The offline engine: Stage 1 and Stage 2 from templates and the table engine, no network
 * and no model. Everything it writes names itself `offline-rules` (OFFLINE_MODEL).
 */
export { offlineProposals, type OfflineProposalsInput, type ProposalTarget } from './offline-proposals';
export { offlineItem, OFFLINE_FAILURE_CAUSES, type OfflineFailureCause, type OfflineItemInput, type OfflineItemResult, type OfflineProposal } from './offline-item';
export { offlineGroupItem, type OfflineGroupItemInput, type OfflineGroupChart } from './group-item';
export { groupQuestionProgram, GROUP_QUESTION_FORMS, type GroupQuestionProgram, type GroupQuestionForm } from './group-question-program';
export { buildOfflineItem, pairOffline, type OfflineJob, type OfflinePairingResult } from './offline-job';
export { PROPOSAL_TEMPLATES } from './proposal-vocabulary';
