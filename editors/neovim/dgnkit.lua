-- dgnkit for Neovim: filetype detection, highlighting and the dgn-lsp
-- language server for NetHack's dungeon description language (dungeon.def),
-- and the same server for NetHack 3.7's dungeon.lua: a file named exactly
-- dungeon.lua keeps Neovim's own `lua` filetype and highlighting, and gets
-- dgn-lsp besides; no other Lua file is touched.
-- Works with Neovim 0.7 (vim.lsp.start_client) and later (vim.lsp.start).
--
-- Use it as a module: copy this file to ~/.config/nvim/lua/dgnkit.lua and put
--   require('dgnkit').setup({ settings = { target = 'nethack-3.6' } })
-- in init.lua, or load it in place:
--   dofile('/path/to/dgnkit/editors/neovim/dgnkit.lua').setup({})
--
-- Options (all optional):
--   cmd       command that starts the server; default { $DGN_LSP or 'dgn-lsp' }
--   settings  { target = 'nethack-3.4.3'|'nethack-3.6'|'native'|'unnethack'|..., dialect = 'vanilla',
--               defines = { 'REINCARNATION' }, undefines = {},
--               luaTarget = 'nethack-3.7'|'nethack-5.0'|... (what a dungeon.lua is checked for) }
--   lua       false to leave dungeon.lua files alone
--   on_attach function(client, bufnr) for your own mappings
--   highlight false to leave syntax highlighting to something else

local M = {}

M.filetype = 'dungeondef'
M.language_id = 'dungeon-def'
M.install_hint = 'Install dgn-lsp from a dgnkit checkout with `cargo install --path lsp-server`, '
  .. 'or pass setup({ cmd = { "/path/to/dgn-lsp" } }).'

-- Names NetHack and its variants give these files; `.def` alone is left to
-- other languages.
M.patterns = { 'dungeon.def', 'dungeon*.def', 'dngn*.def', 'dungeon.pdf', 'dungeon*.pdf', '*.dgn' }

-- NetHack 3.7's dungeon description: only this name (a pattern without a
-- `/` matches the file's name, whatever its directory).
M.lua_patterns = { 'dungeon.lua' }
M.lua_language_id = 'lua'

local defaults = {
  target = 'nethack-3.6',
  luaTarget = 'nethack-3.7',
  dialect = 'vanilla',
  defines = {},
  undefines = {},
}

local config = { settings = vim.deepcopy(defaults) }
local clients = {} -- root directory -> client id (Neovim 0.7 has no vim.lsp.start)

local function notify(msg, level)
  vim.notify('dgnkit: ' .. msg, level or vim.log.levels.INFO)
end

local function root_dir(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or vim.fn.getcwd()
  local marker = vim.fn.finddir('.git', dir .. ';')
  if marker ~= '' then
    return vim.fn.fnamemodify(marker, ':p:h:h')
  end
  return dir
end

local function server_settings()
  local s = config.settings
  return {
    target = s.target,
    luaTarget = s.luaTarget,
    dialect = s.dialect,
    defines = s.defines,
    undefines = s.undefines,
  }
end

local function command()
  if config.cmd then
    return config.cmd
  end
  local env = vim.env.DGN_LSP
  if env ~= nil and env ~= '' then
    return { env }
  end
  return { 'dgn-lsp' }
end

-- Syntax highlighting for Vim's regex engine, the same categories as the
-- VS Code grammar.
function M.define_syntax()
  vim.cmd([[
    syntax clear
    syntax case match
    syntax match dgnComment /#.*$/
    syntax match dgnFlag /^%[A-Za-z_][A-Za-z0-9_]*/
    syntax keyword dgnKeyword DUNGEON ENTRY PROTOFILE DESCRIPTION LEVELDESC ALIGNMENT LEVALIGN
    syntax keyword dgnKeyword BRANCH CHAINBRANCH LEVEL RNDLEVEL CHAINLEVEL RNDCHLEVEL TILESET
    syntax keyword dgnCompat RNDCHAINLEVEL
    syntax keyword dgnDirection up down
    syntax keyword dgnBranchType stair no_up no_down portal
    syntax keyword dgnDescriptor town hellish mazelike roguelike iceq vecnad gtown purg hdgn
    syntax keyword dgnAlignment unaligned noalign chaotic neutral lawful
    syntax match dgnTileset /\<[a-z][a-z0-9_]*_tileset\>/
    syntax match dgnNumber /\%(\w\|-\)\@<!-\=\d\+\%(\w\|-\)\@!/
    syntax match dgnOperator /[@+]/
    syntax region dgnString start=/"/ end=/"/ end=/$/ oneline
    highlight default link dgnComment Comment
    highlight default link dgnFlag PreProc
    highlight default link dgnKeyword Keyword
    highlight default link dgnCompat Keyword
    highlight default link dgnDirection Constant
    highlight default link dgnBranchType Constant
    highlight default link dgnDescriptor Constant
    highlight default link dgnAlignment Constant
    highlight default link dgnTileset Constant
    highlight default link dgnNumber Number
    highlight default link dgnOperator Operator
    highlight default link dgnString String
  ]])
  vim.b.current_syntax = M.filetype
end

-- Starts (or reuses) the server for the buffer and attaches it.
function M.attach(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local cmd = command()
  if vim.fn.executable(cmd[1]) ~= 1 then
    if not M._warned then
      M._warned = true
      notify(cmd[1] .. ' was not found, so there are no diagnostics. ' .. M.install_hint, vim.log.levels.WARN)
    end
    return nil
  end
  local root = root_dir(bufnr)
  local lsp_config = {
    name = 'dgnkit',
    cmd = cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    init_options = server_settings(),
    settings = { dgnkit = server_settings() },
    get_language_id = function(_, filetype)
      return filetype == M.filetype and M.language_id or M.lua_language_id
    end,
    on_init = function(client)
      client.notify('workspace/didChangeConfiguration', { settings = { dgnkit = server_settings() } })
      return true
    end,
    on_attach = config.on_attach,
  }
  if vim.lsp.start then
    return vim.lsp.start(lsp_config, { bufnr = bufnr })
  end
  local id = clients[root]
  if id == nil or vim.lsp.get_client_by_id(id) == nil or vim.lsp.get_client_by_id(id).is_stopped() then
    id = vim.lsp.start_client(lsp_config)
    if id == nil then
      notify('could not start ' .. table.concat(cmd, ' '), vim.log.levels.ERROR)
      return nil
    end
    clients[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

-- Whether dgnkit serves the buffer as a dungeon.lua.
function M.is_dungeon_lua(bufnr)
  return config.lua ~= false and vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':t') == 'dungeon.lua'
end

-- Restarts every dgnkit client with new settings (e.g. another target).
function M.set_settings(settings)
  config.settings = vim.tbl_extend('force', config.settings, settings or {})
  for _, client in ipairs(vim.lsp.get_active_clients()) do
    if client.name == 'dgnkit' then
      client.notify('workspace/didChangeConfiguration', { settings = { dgnkit = server_settings() } })
    end
  end
end

function M.setup(opts)
  opts = opts or {}
  config = {
    cmd = opts.cmd,
    on_attach = opts.on_attach,
    highlight = opts.highlight ~= false,
    lua = opts.lua ~= false,
    settings = vim.tbl_extend('force', vim.deepcopy(defaults), opts.settings or {}),
  }
  local group = vim.api.nvim_create_augroup('dgnkit', { clear = true })
  vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
    group = group,
    pattern = M.patterns,
    callback = function(args)
      vim.bo[args.buf].filetype = M.filetype
    end,
  })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = M.filetype,
    callback = function(args)
      vim.bo[args.buf].commentstring = '# %s'
      vim.bo[args.buf].comments = ':#'
      if config.highlight then
        M.define_syntax()
      end
      M.attach(args.buf)
    end,
  })
  if config.lua then
    vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
      group = group,
      pattern = M.lua_patterns,
      callback = function(args)
        M.attach(args.buf)
      end,
    })
  end
  vim.api.nvim_create_user_command('DgnkitRestart', function()
    for _, client in ipairs(vim.lsp.get_active_clients()) do
      if client.name == 'dgnkit' then
        client.stop()
      end
    end
    clients = {}
    vim.defer_fn(function()
      for _, buf in ipairs(vim.api.nvim_list_bufs()) do
        if vim.api.nvim_buf_is_loaded(buf) and (vim.bo[buf].filetype == M.filetype or M.is_dungeon_lua(buf)) then
          M.attach(buf)
        end
      end
    end, 500)
  end, { desc = 'Restart the dgnkit language server' })
  return M
end

return M
