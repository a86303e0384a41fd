import { LuGift } from 'react-icons/lu';
import { ComingSoon } from '../components/coming-soon.tsx';

// Placeholder: the feature engineer replaces this page (keep the default export for React.lazy).
export default function RewardsPage() {
  return <ComingSoon title="Rewards" subtitle="Claim your hourly, bonus and daily coins." icon={<LuGift />} />;
}
