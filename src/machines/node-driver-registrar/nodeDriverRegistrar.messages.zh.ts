/**
 * zh-CN text of the messages and step summaries in the English catalog beside this file (same ids,
 * same placeholders; see shared/messages.ts MessageTextZh). test/i18n/catalog-zh.test.ts checks both.
 */
import { defineMessagesZh, defineSummaries } from '../shared/messages.ts';

export const messagesZh = defineMessagesZh({
  'nodeDriverRegistrar.version': {
    summary: 'node-driver-registrar {version} 启动。',
  },
  'nodeDriverRegistrar.runningMode': {
    summary: 'node-driver-registrar 以注册（registration）模式运行。',
  },
  'nodeDriverRegistrar.openingConnection': {
    summary: 'node-driver-registrar 连接 CSI 驱动的套接字 {csiAddress}。',
  },
  'nodeDriverRegistrar.discoveringName': {
    summary: 'node-driver-registrar 向 CSI 驱动查询其名称（GetPluginInfo）。',
  },
  'nodeDriverRegistrar.driverName': {
    summary: 'CSI 驱动报告其名称为 {driver}。',
  },
  'nodeDriverRegistrar.driverNameFailed': {
    summary: 'node-driver-registrar 无法获取驱动名称：{err}',
    cause: 'CSI 节点插件未在 --timeout（1s）内响应 GetPluginInfo，或返回了错误。',
    next: '检查节点插件容器是否在运行并监听 --csi-address；node-driver-registrar 会退出并重启。',
  },
  'nodeDriverRegistrar.startingServer': {
    summary: 'node-driver-registrar 打开其注册套接字 {socketPath}。',
  },
  'nodeDriverRegistrar.serverStarted': {
    summary: '注册套接字 {socketPath} 已开始监听；kubelet 的插件监视器（plugin watcher）将会发现它。',
  },
  'nodeDriverRegistrar.getInfo': {
    summary: 'kubelet 询问 node-driver-registrar 它注册的是哪个插件（GetInfo）。',
  },
  'nodeDriverRegistrar.notifyRegistrationStatus': {
    summary: 'kubelet 将注册结果告知 node-driver-registrar：registered={registered}。',
  },
  'nodeDriverRegistrar.registrationFailed': {
    summary: 'kubelet 未能注册该驱动：{error}。node-driver-registrar 退出，以便被重启。',
    cause: 'kubelet 验证插件失败，或无法访问 CSI 节点插件（NodeGetInfo）。',
    next: '查看该节点 kubelet 在注册前后的日志；检查节点插件容器。',
  },
});

export const summariesZh = defineSummaries({});
