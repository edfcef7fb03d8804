export { MaintenanceModule } from './maintenance.module';
export { taskIntervalMs } from './maintenance-schedule';
