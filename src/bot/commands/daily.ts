import { claimRewardCommand, rewardDescription } from './claim-reward-command.ts';

/** /daily: the daily reward, exactly as on the Rewards page. */
export const dailyCommand = claimRewardCommand('daily', 'daily', rewardDescription('daily', 'daily'));
