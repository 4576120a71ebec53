-- Headless check of editors/neovim/dgnkit.lua against the real dgn-lsp:
--   DGN_LSP=/path/to/dgn-lsp nvim --headless --clean -c 'luafile editors/neovim/test/lsp_test.lua'
-- Opens editors/test/dungeon.def, waits for diagnostics, breaks a bones
-- marker with an edit, checks the error, asks for hover and definition.
-- Prints one line per check and a closing "N passed, N failed"; exits 1 on
-- any failure.

local script = debug.getinfo(1, 'S').source:sub(2)
local editors = vim.fn.fnamemodify(script, ':p:h:h:h')
local fixture = editors .. '/test/dungeon.def'
local server = vim.env.DGN_LSP
local timeout = 30000

local passed, failed = 0, 0

local function out(line)
  io.stdout:write(line .. '\n')
end

local function check(name, ok, detail)
  if ok then
    passed = passed + 1
    out('ok - ' .. name)
  else
    failed = failed + 1
    out('not ok - ' .. name .. (detail and (': ' .. detail) or ''))
  end
  return ok
end

local function finish()
  out(string.format('neovim: %d passed, %d failed', passed, failed))
  for _, client in ipairs(vim.lsp.get_active_clients()) do
    client.stop(true)
  end
  vim.cmd(failed == 0 and 'qall!' or 'cquit 1')
end

local ok_run, err = pcall(function()
  if server == nil or server == '' or vim.fn.executable(server) ~= 1 then
    check('DGN_LSP names an executable dgn-lsp', false, tostring(server))
    return
  end

  -- Count every publishDiagnostics, so "arrived with nothing in it" is visible.
  local published = 0
  local default_handler = vim.lsp.handlers['textDocument/publishDiagnostics']
  vim.lsp.handlers['textDocument/publishDiagnostics'] = function(e, result, ctx, cfg)
    published = published + 1
    return default_handler(e, result, ctx, cfg)
  end

  local dgnkit = dofile(editors .. '/neovim/dgnkit.lua')
  dgnkit.setup({ cmd = { server }, settings = { target = 'nethack-3.6', dialect = 'vanilla' } })

  vim.cmd('edit ' .. vim.fn.fnameescape(fixture))
  local buf = vim.api.nvim_get_current_buf()
  check('filetype is detected', vim.bo[buf].filetype == 'dungeondef', vim.bo[buf].filetype)
  check('syntax highlighting is defined', vim.b[buf].current_syntax == 'dungeondef', tostring(vim.b[buf].current_syntax))

  local attached = vim.wait(timeout, function()
    return #vim.lsp.buf_get_clients(buf) > 0 and published > 0
  end, 50)
  if not check('dgn-lsp attaches and publishes diagnostics', attached, 'published ' .. published) then
    return
  end
  local client = vim.lsp.buf_get_clients(buf)[next(vim.lsp.buf_get_clients(buf))]
  check('the client speaks dungeon-def', client.config.get_language_id(buf, 'dungeondef') == 'dungeon-def')

  local function errors()
    return vim.diagnostic.get(buf, { severity = vim.diagnostic.severity.ERROR })
  end
  check('the fixture has no errors', #errors() == 0, vim.inspect(errors()))

  -- "O" (the Oracle's bones marker) becomes "XX": an incremental change.
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local row, col
  for i, line in ipairs(lines) do
    local s = line:find('"O"', 1, true)
    if s and line:find('^LEVEL:') then
      row, col = i - 1, s - 1
    end
  end
  local before = published
  vim.api.nvim_buf_set_text(buf, row, col + 1, row, col + 2, { 'XX' })
  local got = vim.wait(timeout, function()
    return published > before and #errors() > 0
  end, 50)
  if check('an edit that breaks a bones marker gives an error', got, 'published ' .. published) then
    local e = errors()[1]
    check(
      'the error is on the marker',
      #errors() == 1 and e.lnum == row and (e.col == col or e.col == col + 1),
      string.format('want line %d col %d, got %s', row, col, vim.inspect(errors()))
    )
    out('# ' .. (e.message:gsub('\n', '\n# ')))
  end

  local function request(method, params)
    local responses = vim.lsp.buf_request_sync(buf, method, params, timeout) or {}
    for _, r in pairs(responses) do
      if r.result ~= nil then
        return r.result, r.error
      end
      if r.error ~= nil then
        return nil, r.error
      end
    end
    return nil, nil
  end

  local uri = vim.uri_from_bufnr(buf)
  local oracle_line = row
  local hover, herr = request('textDocument/hover', {
    textDocument = { uri = uri },
    position = { line = oracle_line, character = lines[oracle_line + 1]:find('oracle', 1, true) },
  })
  local text = ''
  if hover then
    local contents = hover.contents
    if type(contents) == 'string' then
      text = contents
    elseif contents.value then
      text = contents.value
    else
      for _, c in ipairs(contents) do
        text = text .. (type(c) == 'string' and c or c.value) .. '\n'
      end
    end
  end
  check('hover on a level name has content', text:match('%S') ~= nil, vim.inspect(herr or hover))

  local ref_row, ref_col, def_row
  for i, line in ipairs(lines) do
    if line:find('^CHAINLEVEL:%s*"wizard2"') then
      ref_row, ref_col = i - 1, line:find('"wizard1"', 1, true)
    elseif line:find('^LEVEL:%s*"wizard1"') then
      def_row = i - 1
    end
  end
  local def, derr = request('textDocument/definition', {
    textDocument = { uri = uri },
    position = { line = ref_row, character = ref_col + 2 },
  })
  local loc = def and (def.uri and def or def[1])
  local target = loc and (loc.range or loc.targetSelectionRange)
  check(
    'definition of a chain reference is its LEVEL line',
    target ~= nil and target.start.line == def_row,
    vim.inspect(derr or def)
  )

  -- Undo the edit: the error goes away again.
  before = published
  vim.api.nvim_buf_set_text(buf, row, col + 1, row, col + 3, { 'O' })
  local cleared = vim.wait(timeout, function()
    return published > before and #errors() == 0
  end, 50)
  check('undoing the edit clears the error', cleared, vim.inspect(errors()))
end)

if not ok_run then
  check('the test script runs', false, tostring(err))
end
finish()
