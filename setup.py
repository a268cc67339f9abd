from configparser import ConfigParser
import os, setuptools, shlex, subprocess, sys, tempfile
from setuptools.command.build_py import build_py

# Everything is read from settings.ini, which nbdev also reads: one place to change metadata.
config = ConfigParser(delimiters=['='])
config.read('settings.ini', encoding='utf-8')
cfg = config['DEFAULT']

cfg_keys = 'version description keywords author author_email'.split()
expected = cfg_keys + "lib_name user branch license status min_python audience language".split()
for o in expected: assert o in cfg, "missing expected setting: {}".format(o)
setup_cfg = {o: cfg[o] for o in cfg_keys}

licenses = {
    'apache2': ('Apache Software License 2.0', 'OSI Approved :: Apache Software License'),
    'mit': ('MIT License', 'OSI Approved :: MIT License'),
    'gpl2': ('GNU General Public License v2', 'OSI Approved :: GNU General Public License v2 (GPLv2)'),
    'gpl3': ('GNU General Public License v3', 'OSI Approved :: GNU General Public License v3 (GPLv3)'),
    'bsd3': ('BSD License', 'OSI Approved :: BSD License'),
}
statuses = ['1 - Planning', '2 - Pre-Alpha', '3 - Alpha', '4 - Beta', '5 - Production/Stable', '6 - Mature', '7 - Inactive']
py_versions = '3.10 3.11 3.12 3.13'.split()

requirements = shlex.split(cfg.get('requirements', ''))
dev_requirements = shlex.split(cfg.get('dev_requirements', ''))
min_python = cfg['min_python']
lic = licenses.get(cfg['license'].lower(), (cfg['license'], None))



class build_py_with_compiled_code(build_py):
    """build_py, then numba's machine code of the solvers into the package (`l0qsvm/_compiled`), so that the first fit of
    an install loads it instead of compiling (about 20 s here). Skipped for editable installs and with
    L0QSVM_NO_PRECOMPILE=1; if it fails, the package is built without it and compiles on first use."""
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False) or os.environ.get("L0QSVM_NO_PRECOMPILE"): return
        lib = os.path.abspath(self.build_lib)
        with tempfile.TemporaryDirectory() as tmp:           # a fresh numba cache; run outside the source tree
            path = os.pathsep.join([lib, *filter(None, [os.environ.get("PYTHONPATH")])])   # (pip's isolated build
            env = dict(os.environ, PYTHONPATH=path, NUMBA_CACHE_DIR=os.path.join(tmp, "cache"), MPLBACKEND="Agg")  # env)
            code = f"from l0qsvm.build import ship_compiled; ship_compiled({os.path.join(lib, 'l0qsvm')!r})"
            print("l0qsvm: compiling the solvers into the package (l0qsvm/_compiled) ...", flush=True)
            res = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp, capture_output=True, text=True)
            if res.returncode:
                print("l0qsvm: the compiled code could not be built, so the first fit will compile it:\n"
                      + res.stderr[-2000:], file=sys.stderr)

setuptools.setup(
    cmdclass={"build_py": build_py_with_compiled_code},
    name=cfg['lib_name'],
    license=lic[0],
    classifiers=[
        'Development Status :: ' + statuses[int(cfg['status'])],
        'Intended Audience :: ' + cfg['audience'].title(),
        'Intended Audience :: Science/Research',
        'Topic :: Scientific/Engineering :: Artificial Intelligence',
        'Natural Language :: ' + cfg['language'].title(),
    ] + ['Programming Language :: Python :: ' + o for o in py_versions[py_versions.index(min_python):]]
      + (['License :: ' + lic[1]] if lic[1] else []),
    url=cfg['git_url'],
    packages=setuptools.find_packages(include=[cfg['lib_name'], cfg['lib_name'] + '.*']),
    include_package_data=True,
    install_requires=requirements,
    extras_require={'dev': dev_requirements},
    python_requires='>=' + cfg['min_python'],
    long_description=open('README.md', encoding='utf-8').read(),
    long_description_content_type='text/markdown',
    zip_safe=False,
    entry_points={
        'console_scripts': cfg.get('console_scripts', '').split(),
        'nbdev': [f'{cfg.get("lib_path")}={cfg.get("lib_path")}._modidx:d'],
    },
    **setup_cfg)
