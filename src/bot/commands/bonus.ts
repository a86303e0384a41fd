import { claimRewardCommand, rewardDescription } from './claim-reward-command.ts';

/** /bonus: the bonus reward, exactly as on the Rewards page. */
export const bonusCommand = claimRewardCommand('bonus', 'bonus', rewardDescription('bonus', 'bonus'));
