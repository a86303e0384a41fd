import { LuLayoutDashboard } from 'react-icons/lu';
import { ComingSoon } from '../components/coming-soon.tsx';

// Placeholder: the feature engineer replaces this page (keep the default export for React.lazy).
export default function DashboardPage() {
  return <ComingSoon title="Dashboard" subtitle="Your coins, servers and recent activity." icon={<LuLayoutDashboard />} />;
}
