-- Headless check of editors/neovim/dgnkit.lua against the real dgn-lsp:
--   DGN_LSP=/path/to/dgn-lsp nvim --headless --clean -c 'luafile editors/neovim/test/lsp_test.lua'
-- Opens editors/test/dungeon.def, waits for diagnostics, breaks a bones
-- marker with an edit, checks the error, asks for hover and definition.
-- Then NetHack 3.7: dgnkit's corpus/nethack-3.7.lua, copied to a file named
-- dungeon.lua, gets the server (diagnostics as one types, a hover with
-- depths, definition of a chain level) and keeps the lua filetype; another
-- Lua file does not get the server.
-- Prints one line per check and a closing "N passed, N failed"; exits 1 on
-- any failure.

local script = debug.getinfo(1, 'S').source:sub(2)
local editors = vim.fn.fnamemodify(script, ':p:h:h:h')
local fixture = editors .. '/test/dungeon.def'
local lua_source = editors .. '/../corpus/nethack-3.7.lua'
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

  -- NetHack 3.7's dungeon.lua.
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p')
  local lua_file = dir .. '/dungeon.lua'
  vim.fn.writefile(vim.fn.readfile(lua_source, 'b'), lua_file, 'b')
  vim.fn.writefile({ 'return { answer = 42 }' }, dir .. '/other.lua')

  vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/other.lua'))
  local other = vim.api.nvim_get_current_buf()
  vim.wait(500, function()
    return false
  end, 50)
  check('another Lua file does not get dgn-lsp', #vim.lsp.buf_get_clients(other) == 0)

  before = published
  vim.cmd('edit ' .. vim.fn.fnameescape(lua_file))
  local lbuf = vim.api.nvim_get_current_buf()
  check('dungeon.lua keeps the lua filetype', vim.bo[lbuf].filetype == 'lua', vim.bo[lbuf].filetype)
  local lua_attached = vim.wait(timeout, function()
    return #vim.lsp.buf_get_clients(lbuf) > 0 and published > before
  end, 50)
  if not check('dgn-lsp attaches to dungeon.lua and publishes diagnostics', lua_attached) then
    return
  end
  local lclient = vim.lsp.buf_get_clients(lbuf)[next(vim.lsp.buf_get_clients(lbuf))]
  check('the client sends dungeon.lua as lua', lclient.config.get_language_id(lbuf, 'lua') == 'lua')
  local function lua_errors()
    return vim.diagnostic.get(lbuf, { severity = vim.diagnostic.severity.ERROR })
  end
  check('the built-in 3.7 description has no errors', #lua_errors() == 0, vim.inspect(lua_errors()))

  local llines = vim.api.nvim_buf_get_lines(lbuf, 0, -1, false)
  local oracle_row, oracle_col, chain_row, chain_col
  for i, line in ipairs(llines) do
    local s = line:find('name = "oracle"', 1, true)
    if s and not oracle_row then
      oracle_row, oracle_col = i - 1, s - 1 + #'name = "'
    end
    local c = line:find('chainlevel = "oracle"', 1, true)
    if c and not chain_row then
      chain_row, chain_col = i - 1, c - 1 + #'chainlevel = "'
    end
  end
  local lhover = vim.lsp.buf_request_sync(lbuf, 'textDocument/hover', {
    textDocument = { uri = vim.uri_from_bufnr(lbuf) },
    position = { line = oracle_row, character = oracle_col + 1 },
  }, timeout) or {}
  local htext = ''
  for _, r in pairs(lhover) do
    if r.result and r.result.contents then
      htext = r.result.contents.value or ''
    end
  end
  check('hover on a dungeon.lua level shows its depths', htext:find('depth:', 1, true) ~= nil, htext)

  local ldef = vim.lsp.buf_request_sync(lbuf, 'textDocument/definition', {
    textDocument = { uri = vim.uri_from_bufnr(lbuf) },
    position = { line = chain_row, character = chain_col + 1 },
  }, timeout) or {}
  local lloc
  for _, r in pairs(ldef) do
    if r.result then
      lloc = r.result.uri and r.result or r.result[1]
    end
  end
  check(
    'definition of chainlevel is the level',
    lloc ~= nil and lloc.range.start.line == oracle_row and lloc.range.start.character == oracle_col,
    vim.inspect(lloc)
  )

  -- A field misspelt as one types: the server reports it on the line.
  before = published
  local brow = oracle_row
  local bcol = llines[brow + 1]:find('bonetag', 1, true) - 1
  vim.api.nvim_buf_set_text(lbuf, brow, bcol, brow, bcol + 7, { 'bonetog' })
  local warned = vim.wait(timeout, function()
    for _, d in ipairs(vim.diagnostic.get(lbuf)) do
      if d.lnum == brow and d.message:find('bonetag', 1, true) then
        return true
      end
    end
    return false
  end, 50)
  check('a misspelt field is reported as one types', warned, vim.inspect(vim.diagnostic.get(lbuf)))
end)

if not ok_run then
  check('the test script runs', false, tostring(err))
end
finish()
