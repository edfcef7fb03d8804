export { MaintenanceWorkerModule } from './jobs/maintenance-worker.module';
export { taskIntervalMs } from './maintenance-schedule';
