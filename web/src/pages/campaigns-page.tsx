import { LuMegaphone } from 'react-icons/lu';
import { ComingSoon } from '../components/coming-soon.tsx';

// Placeholder: the feature engineer replaces this page (keep the default export for React.lazy).
export default function CampaignsPage() {
  return <ComingSoon title="My Campaigns" subtitle="Manage your server growth campaigns and track member joins." icon={<LuMegaphone />} />;
}
